## The kozel command: options the rules refuse together
cli-option-needs = --option { $name }={ $value } требует ещё --option { $needed }, одно из { $values }
cli-option-conflict = --option { $name }={ $value } не сочетается с { $other }={ $current }: при нём { $other } принимает { $values }
cli-options-refused = --option: правила { $rules } не принимают эти настройки вместе: { $words }
cli-ambiguous = { $option } — это может быть { $matches }
cli-no-value = { $argument } не принимает значения, а дано «{ $value }»

## The kozel command's help
cli-help-command = КОМАНДА
cli-help-usage = запуск:
cli-help-arguments = аргументы
cli-help-options = параметры
cli-help = показать эту справку и выйти
cli-help-kozel = Козёл, карточная игра: партия в терминале, правила, проверка записей партий. Параметры команды: kozel КОМАНДА --help; --lang ru или en после команды выбирает язык (по умолчанию DEFAULT_LOCALE).
cli-help-replay = воспроизвести записи партий и вывести их итоги строками JSON
cli-help-play = играть в терминале против компьютерных игроков
cli-help-rules = вывести правила набора правил с его настройками
cli-help-files = запись партии (JSON)
cli-help-seats = кто сидит на местах 0, 1, 2 и 3 по часовой стрелке (0 и 2 — команда A, 1 и 3 — команда B): you (вы) или bot (компьютер), you не больше одного раза, например bot,you,bot,bot (по умолчанию { $default })
cli-help-rules-choice = правила: { $rules } (по умолчанию DEFAULT_RULE_SET, иначе yard)
cli-help-option = настройка правил, ИМЯ=ЗНАЧЕНИЕ (можно несколько; правила проверяют их вместе); { $options }
cli-help-no-options = нет
cli-help-preset = набор настроек правил, до всех --option: classic 003 (настройки по умолчанию) или 001 (игра из сборника правил: дамы, вальты и бубны)
cli-help-lang = язык запуска (по умолчанию DEFAULT_LOCALE)
cli-help-seed = тасовать и играть воспроизводимо
cli-help-record = записать сюда запись партии
cli-help-db = база данных (по умолчанию DATABASE_URL)
cli-help-delay = секунд на ход компьютера
cli-help-verbose = выводить каждый ход компьютеров
cli-help-level = сила компьютерных игроков (по умолчанию COMPUTER_LEVEL, иначе { $level })
cli-help-new = бросить сохранённую партию этого терминала (она отменяется, а не доигрывается) и начать новую по --rules, --option и --level; без него сохранённая партия продолжается как сохранена
cli-help-log = писать строки журнала сюда (по умолчанию в стандартный поток ошибок, если это не терминал, иначе в { $file } во временной папке): никогда не на экран игры
cli-help-web = ещё и показать стол в браузере на 127.0.0.1 и напечатать его ссылки (вашу и для зрителей): играйте со страницы, из терминала или оттуда и отсюда
cli-help-web-port = порт страницы --web (включает --web; по умолчанию любой свободный)

## The terminal game: a saved game and what the command asked
console-seat-differs = В этой сохранённой партии вы сидите на месте { $saved }, а не на месте { $seat }, как просит --seats: она продолжится как сохранена.
