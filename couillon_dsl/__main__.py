from couillon_dsl.cli import main

main(prog_name="couillon")  # usage lines and shell completion (_COUILLON_COMPLETE) as for the installed command
