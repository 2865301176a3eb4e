## The kozel command: options the rules refuse together
cli-option-needs = --option { $name }={ $value } needs --option { $needed } too, one of { $values }
cli-option-conflict = --option { $name }={ $value } does not go with { $other }={ $current }: with it { $other } takes { $values }
cli-options-refused = --option: { $rules } does not take these options together: { $words }
cli-ambiguous = { $option } could be { $matches }
cli-no-value = { $argument } takes no value, not “{ $value }”

## The kozel command's help
cli-help-command = COMMAND
cli-help-usage = usage:
cli-help-arguments = arguments
cli-help-options = options
cli-help = show this help and exit
cli-help-kozel = Kozel, the card game: play it in the terminal, print its rules, check game records. A command's options: kozel COMMAND --help; --lang ru or en after the command chooses the language (default: DEFAULT_LOCALE).
cli-help-replay = replay game records and print their results as JSON lines
cli-help-play = play in the terminal against computer players
cli-help-rules = print the rules of a rule set with its options
cli-help-files = a game record (JSON)
cli-help-seats = who sits at seats 0, 1, 2 and 3, clockwise (0 and 2 are team A, 1 and 3 team B): you or bot, you at one seat at most, e.g. bot,you,bot,bot (default: { $default })
cli-help-rules-choice = the rules: { $rules } (default: DEFAULT_RULE_SET, else yard)
cli-help-option = an option of the rules, NAME=VALUE (repeatable; the rules check them together); { $options }
cli-help-no-options = none
cli-help-preset = a preset of the rules' options, before any --option: classic 003 (the defaults) or 001 (the compendium's game: queens, jacks and diamonds)
cli-help-lang = the language of the run (default: DEFAULT_LOCALE)
cli-help-seed = shuffle and play reproducibly
cli-help-record = write the series' game record here
cli-help-db = the database (default: DATABASE_URL)
cli-help-delay = seconds per computer move
cli-help-verbose = print every move of the computers
cli-help-level = the computer players' strength (default: COMPUTER_LEVEL, else { $level })
cli-help-new = abandon the saved game of this terminal (it is cancelled, never finished) and start a new one of --rules, --option and --level; without it a saved game goes on as it was saved
cli-help-log = write log lines here (default: standard error when it is not the terminal, else { $file } in the temporary folder): never on the game's screen
cli-help-web = also serve the table in the browser on 127.0.0.1 and print its links (yours and the spectators'): play from the page, the terminal or both
cli-help-web-port = the port of --web's page (implies --web; default: any free port)

## The terminal game: a saved game and what the command asked
console-seat-differs = This saved game seats you at seat { $saved }, not at seat { $seat } as --seats asks: it goes on as it was saved.
