from couillon_dsl.cli import main

main()
