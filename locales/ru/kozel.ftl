# Козёл — русские тексты бота.
# Числа: [one] 1, 21, 31…; [few] 2–4, 22–24…; [many] 0, 5–20, 25–30…; *[other] дроби.

## Общее

team-a = Команда A
team-b = Команда B
names-pair = { $first } и { $second }
suit-clubs = ♣ трефы
suit-spades = ♠ пики
suit-hearts = ♥ черви
suit-diamonds = ♦ бубны
rules-name-yard = Козёл на 4 карты, дворовые правила
rules-name-classic = Хвалёный козёл
rules-short-yard = Дворовый
rules-short-classic = Хвалёный
lang-name-ru = русский
lang-name-en = английский
duration =
    { $minutes ->
        [0] { $seconds } сек.
       *[other]
            { $seconds ->
                [0] { $minutes } мин
               *[other] { $minutes } мин { $seconds } сек.
            }
    }
timeout-none = без ограничения
cards-count =
    { $count } { $count ->
        [one] карта
        [few] карты
        [many] карт
       *[other] карты
    }

## Имена компьютерных игроков

bot-name-1 = Бот Вася
bot-name-2 = Бот Петя
bot-name-3 = Бот Коля
bot-name-4 = Бот Миша
bot-name-5 = Бот Толя
bot-name-6 = Бот Серёжа
bot-name-7 = Бот Дима
bot-name-8 = Бот Саша

## Команды (описания для меню, не длиннее 100 знаков)

cmd-kozel = Собрать стол и сыграть в козла
cmd-top = Лучшие игроки этого чата, всех чатов, месяца
cmd-stats = Моя статистика
cmd-rules = Правила игры
cmd-lang = Сменить язык чата: русский или английский
cmd-help = Справка по командам
cmd-stop = Отменить игру в этом чате

## Справка

help-text =
    🐐 Козёл — карточная игра на четверых: две команды по двое, напарники сидят напротив.

    { $kozel } — собрать стол в этом чате; { $kozel } { $yard } или { $kozel } { $classic } — с этими правилами (в лобби можно поменять и их, и правила стола)
    { $stop } — отменить игру в этом чате
    { $rules } — правила стола в этом чате ({ $rules } { $yard }, { $rules } { $classic } — любой из игр)
    { $stats } — ваша статистика в каждой игре
    { $top } — лучшие игроки чата, { $top } { $all } — всех чатов, { $top } { $classic } — за столами одной игры, { $top } { $season } — этого месяца, { $top } { $month } ГГГГ-ММ — прошедшего месяца
    { $pictures } — присылать ли итог партии картинкой: { $pictures } on или off (администраторы)
    { $lang } — язык: { $platform ->
        [discord] { $lang } и язык из списка
       *[other] { $lang } ru или { $lang } en
    }
    { $kozel } { $challenge } — вызов дня: одни и те же раздачи для всех, вы с сильным компьютером против сильного компьютера (в личном чате со мной); { $top } { $challenge } — его таблица
    { $event } — швейцарский вечер пар в группе: админ открывает его командой { $event } { $open }
    { $help } — эта справка

    Свои карты вы видите в личном чате со мной или по кнопке «🃏 Мои карты».

## Правила

rules-also = { $command } — { $rules }
rules-yard =
    📜 Козёл на 4 карты — дворовые правила

    Играют четверо, две команды по двое; напарники сидят друг напротив друга. Колода — 36 карт, от шестёрки до туза. Старшинство в масти: 6, 7, 8, 9, валет (В), дама (Д), король (К), 10, туз (Т) — десятка старше короля. Любой козырь старше любой карты другой масти.

    Раздача. Каждому сдают по 4 карты, остальные 20 лежат колодой. Сдающий показывает всем случайную карту из середины колоды: её масть — козырь до конца раздачи. Карта возвращается на место, и её потом доберёт кто-то из игроков.

    Взятка. Заходящий кладёт от 1 до 4 карт одной масти. Остальные по очереди кладут столько же карт: либо бьют — каждая их карта старше своей пары среди карт, которые сейчас берут взятку (масти можно смешивать, козыри бьют всё), либо скидывают любые карты рубашкой вверх. Бить не обязательно. Взятку забирает тот, кто побил последним, а если никто не побил — заходивший.

    Добор. После взятки все по одной карте добирают из колоды до 4, начиная с взявшего взятку; он же заходит следующим.

    Молодка — четыре карты одной масти на руках. Её можно выложить вне очереди, пока взятка не доиграна: сыгранные карты возвращаются хозяевам, и взятка начинается заново с молодки. Заходивший так сделать не может.

    Счёт. В колоде 120 очков: туз — 11, десятка — 10, король — 4, дама — 3, валет — 2. Кто набрал 61 и больше, выиграл раздачу. Проигравшие получают очки поражения: 2, если набрали от 31 до 59; 4, если 30 и меньше; 6, если не взяли ни одной взятки. 60 на 60 — это «яйца»: очков поражения не получает никто.

    Партия идёт, пока одна из команд не наберёт 12 очков поражения. Её игроки — козлы, а если в партии были яйца — козлы с яйцами.

    Есть и хвалёный козёл — у него свои правила. Полные правила обеих игр — в файле docs/rules.md в исходном коде бота.
rules-classic =
    📜 Хвалёный козёл

    Четверо, две команды по двое, напарники напротив. 32 карты (7–Т). Очки: Т 11, 10 10, К 4, Д 3, В 2 — всего 120.

    Козыри. Дамы и валеты — постоянные козыри, старше всех: Д♣ Д♠ Д♥ Д♦ В♣ В♠ В♥ В♦{ $kocherga ->
        [off] .
       *[on] ; выше только кочерга 7♣.
    } Ниже — { $trump ->
        [fixed] { $suit }, в каждом коне
       *[other] козырная масть
    }. В масти: Т, 10, К, 9, 8, 7.{ $trump ->
        [fixed] {""}
       *[other] {" "}Бескозырка — кон без козырной масти.
    }

    Раздача — по 8 карт{ $by ->
        [four] , в первом коне по одной, дальше без хвалёнки — по четыре
       *[one] {""}
    }. Первый кон без хвалёнки: ходит держатель { $first ->
        [ad] Т♦
       *[jc] В♣
    }{ $trump ->
        [fixed] .
        [none] , козырной масти нет.
       *[roulette] , козырь — трефы, и каждому закрепляется масть (рулетка): держателю В♣ ♣, напарнику ♠, соседу слева ♥, справа ♦.
    } Дальше сдаёт { $dealers ->
        [clockwise] следующий по часовой стрелке
       *[jc] прошлый держатель В♣
    }{ $eggs ->
        [replay] {" "}(после яиц — тот же)
       *[carry] {""}
    }{ $trump ->
        [fixed] .
        [none] .
       *[roulette] { $dealers ->
            [clockwise] , козырь — масть держателя В♣.
           *[jc] , козырь — масть нового.
        }
    }

    Хвалёнка. До раздачи игрок слева от сдающего говорит «сдавай» или хвалится. Простая: хвалящемуся сдают в открытую, пока идут козыри и тузы; { $trump ->
        [fixed] на первой другой карте сдача ему кончается, он ходит.
       *[other] первая другая карта — козырь, он ходит.
    } Штаны: каждый берёт пары (сверху и снизу), пока идут козыри и тузы, и кладёт карту из последней. Зеркало: каждый сдвигает колоду и берёт снизу, пока идут постоянные козыри, последнюю кладёт. { $trump ->
        [fixed] Положенные карты — первая взятка.
       *[other] Затем хвалящийся назначает козырь, а положенные карты — первая взятка.
    }{ $obo ->
        [yes] {" "}По одной: карты сдают по одной, начиная с хвалящегося, и он ходит.
       *[no] {""}
    }

    Ход. С козырей заходит { $lead ->
        [team] только пара хвалящегося
        [non_dealers] только пара, которая не сдавала, и с хвалёнкой, и без
       *[declarer] только хвалящийся
    }. На масть — масть, на козырь — козырь; нет — любую{ $aceban ->
        [off] .
       *[on] , но не туза неходившей масти.
    } Берёт старший козырь, иначе старшая карта масти захода.

    Без хвалёнки до первого хода: { $lasttrump ->
        [off] козырь напарнику не отдают
       *[on] единственный козырь можно отдать напарнику (он отдаёт простую карту или отказывается)
    }; { $redeal ->
        [off] пересдачи нет.
       *[on] с 12 очками и меньше или четырьмя девятками{ $queens ->
            [on] {" "}(или когда у пары нет дам, кроме Д♦)
           *[off] {""}
        } можно просить пересдачу, третья просьба — 1 пара соперникам сдающего.
    }

    { $kocherga ->
        [off] Кочерги нет: 7♣ — простая трефа.
       *[on] Кочерга: 7♣ во взятку с Д♣ соперника — кон окончен, 4 пары.
    }

    Счёт: 61–89 очков — 1 пара, 90–120 — 2. 60 на 60 — яйца: { $eggs ->
        [replay] пар нет, тот же сдающий сдаёт снова.
       *[carry] пара победителю следующего кона.
    } Люся: проигравшие без взяток теряют все пары{ $lucy ->
        [win] , а если пар у них не было — игра окончена.
       *[reset] .
    }

    До 6 пар. Проигравшие — козлы: с яйцами (были яйца), с хвостами (победители с 5 пар взяли последний кон с 90+).

    { $platform ->
        [console] Начать: kozel play --rules classic; все настройки называет kozel play --help.
       *[other] Начать: { $kozel } { $classic }{ $usual ->
            [p001] {" "}001
           *[other] {""}
        }. { $usual ->
            [no] Настройки
            [p001] Настройки
           *[yes] Это обычные правила; настройки
        } стола — в лобби.
    }

## Стол до начала игры (лобби)

lobby-title = 🐐 Новая игра: { $rules }
lobby-creator = Хозяин стола: { $name }
lobby-team = { $team }: { $first }, { $second }
lobby-seat-empty = свободно
lobby-free =
    { $count ->
        [one] Свободно ещё { $count } место.
        [few] Свободно ещё { $count } места.
        [many] Свободно ещё { $count } мест.
       *[other] Свободно ещё { $count } места.
    }
lobby-ready = Все на местах — можно начинать!
lobby-settings = Время на ход: { $timeout } · Язык: { $lang } · Компьютеры: { $level }
lobby-join-a = Сесть в команду A
lobby-join-b = Сесть в команду B
lobby-leave = Встать из-за стола
lobby-add-computer-a = 🤖 Бот в команду A
lobby-add-computer-b = 🤖 Бот в команду B
lobby-remove-computer = ✖ { $name }
lobby-start = ▶ Начать
lobby-cancel = Отменить игру
lobby-timeout = ⏱ { $timeout }
lobby-language = 🌐 { $lang }
lobby-level = 🤖 { $level }
lobby-rules = 📜 { $rules }
lobby-house-rules = ⚙ Правила стола
lobby-house-rules-hint = Правила стола: набор (001 или 003) ставит все правила одним нажатием; остальные кнопки показывают правило, как сейчас; нажмите, чтобы изменить.
lobby-back = ↩ К местам
lobby-preset-chosen = ✓ { $label }
lobby-page-prev = ◂ { $page }/{ $pages }
lobby-page-next = { $page }/{ $pages } ▸
level-easy = слабые
level-normal = средние
level-strong = сильные
lobby-cancel-confirm = Отменить игру? Все места освободятся.
lobby-cancel-yes = Да, отменить
lobby-cancel-no = Нет, играем

## Стол во время игры

table-title = 🐐 { $rules } · раздача { $number }
table-trump = Козырь: { $suit } (открыта { $card }, она в колоде)
table-trump-drawn = Козырь: { $suit } (открытую { $card } взял { $name })
table-trump-drawn-you = Козырь: { $suit } (открытую { $card } взяли вы)
table-stock =
    В колоде { $count } { $count ->
        [one] карта
        [few] карты
        [many] карт
       *[other] карты
    }
table-stock-empty = Колода кончилась
table-trick = Взятка { $number }:
table-trick-empty = На столе пусто, заходит { $name }
table-trick-empty-you = На столе пусто, заходите вы
table-play-lead = { $name } заходит: { $cards }
table-play-lead-you = Вы заходите: { $cards }
table-play-beat = { $name } бьёт: { $cards }
table-play-beat-you = Вы бьёте: { $cards }
table-play-discard = { $name } скидывает: { $cards }
table-play-discard-you = Вы скидываете: { $cards }
table-winning = Пока берёт: { $name }
table-winning-you = Пока берёте вы
table-tricks =
    { $a } { $a ->
        [one] взятка
        [few] взятки
        [many] взяток
       *[other] взятки
    } у команды A · { $b } { $b ->
        [one] взятка
        [few] взятки
        [many] взяток
       *[other] взятки
    } у команды B
table-loss = Очки поражения: A { $a } · B { $b } (до { $limit })
table-turn = ⏳ Ходит { $name }
table-turn-you = ⏳ Ваш ход
table-turn-time = ⏳ Ходит { $name }, осталось { $time }
table-turn-time-you = ⏳ Ваш ход, осталось { $time }
table-waiting = ⏳ Ждём игрока { $name }
table-waiting-you = ⏳ Ждём вашего хода
table-away = 💤 Нет на месте: { $names }. Пока за отсутствующих ходит компьютер.
table-deal-over = Раздача { $number } окончена. Очки: A { $a } · B { $b }
table-deal-eggs = Раздача { $number } окончена: 60 на 60 — яйца!
table-next-deal = Скоро следующая раздача.
table-series-over = 🏁 Партия окончена.
table-no-deal = Раздача ещё не началась.
table-cancelled = Игра отменена.
table-hand-button = 🃏 Мои карты

## Карты игрока

hand-summary = Козырь { $suit } · в колоде { $stock } · взятки A { $a } : B { $b }
hand-trump = Козырь { $suit }
hand-table = На столе: { $plays }
hand-table-empty = На столе пусто.
hand-table-you = вы
hand-your-turn-lead = 👉 Ваш ход: заходите с одной или нескольких карт одной масти.
hand-your-turn-answer =
    👉 Ваш ход: побейте или скиньте { $count } { $count ->
        [one] карту
        [few] карты
        [many] карт
       *[other] карты
    }.
hand-wait = Пока не ваш ход: игра видна на столе в чате. Это сообщение изменится, когда придёт ваш ход.
hand-molodka-hint = У вас молодка! Её можно выложить прямо сейчас, даже не в свой ход.
hand-cards = Ваши карты: { $cards }
hand-selected = Выбрано: { $cards }
hand-select = Выберите карты и нажмите, что с ними сделать.
hand-no-action = Этими картами сейчас ходить нельзя.
hand-empty = Карт на руках нет.
hand-deal-over = Раздача окончена.
hand-no-deal = Раздача ещё не началась.
hand-lead = Зайти: { $cards }
hand-beat = Побить: { $cards }
hand-discard = Скинуть: { $cards }
hand-molodka = 💥 Молодка!
hand-clear = ✖ Снять выбор

## Итоги

result-deal-title = 🃏 Раздача { $number } окончена
result-deal-team =
    { $team }: { $points } { $points ->
        [one] очко
        [few] очка
        [many] очков
       *[other] очка
    }, { $tricks } { $tricks ->
        [one] взятка
        [few] взятки
        [many] взяток
       *[other] взятки
    }
result-deal-loss =
    { $team } получает { $loss } { $loss ->
        [one] очко
        [few] очка
        [many] очков
       *[other] очка
    } поражения.
result-deal-eggs = 🥚 Яйца! 60 на 60 — очков поражения никто не получает.
result-loss = Очки поражения в партии: A { $a } · B { $b } (до { $limit })
result-series-title =
    🏁 Партия окончена после { $deals } { $deals ->
        [one] раздачи
       *[other] раздач
    }
result-goats = 🐐 Козлы: { $names }!
result-goats-eggs = 🐐🥚 Козлы с яйцами: { $names }!
result-winners = Победили: { $names }.
result-rematch = 🔁 Ещё партию
rating-changes-title = 📈 Рейтинг:
rating-change = { $name } { $rating } ({ $delta })
rating-unrated = Эта игра без рейтинга: он считается только за игры четырёх людей.

## Итог партии картинкой

picture-title = Партия окончена
picture-score-yard = { $rules } · очки поражения
picture-score-classic = { $rules } · пары
picture-winners = Победители
# Игрок, в имени которого нет ничего, что картинка может нарисовать.
picture-player = Игрок { $seat }
picture-goats = Козлы
picture-goats-with-eggs = Козлы с яйцами
picture-goats-with-tails = Козлы с хвостами
picture-goats-with-eggs-and-tails = Козлы с яйцами и хвостами
picture-footer-yard = Раздачи: { $deals } · яйца: { $eggs }
picture-footer-classic = Коны: { $deals } · яйца: { $eggs }
picture-caption = 🖼 Итог партии
pictures-on = 🖼 Готово: итог партии будет приходить и картинкой.
pictures-off = 🖼 Готово: итог партии — только текстом, без картинки.
pictures-usage =
    🖼 Итог партии картинкой: { $state ->
        [on] включён
       *[off] выключен
    }. Администраторы группы меняют это: { $command } on или { $command } off
pictures-admins = Картинку итога включают и выключают администраторы группы.
cmd-pictures = Итог партии картинкой: on или off (администраторы)
cmd-name-pictures = картинки
cmd-option-pictures = режим
cmd-option-pictures-about = Присылать итог партии картинкой
pictures-choice-on = включить
pictures-choice-off = выключить

## Статистика

stats-title = 📊 Статистика: { $name }
stats-series = Партии: сыграно { $played }, выиграно { $won } ({ $rate }%)
stats-goats =
    Был козлом { $goat } { $goat ->
        [one] раз
        [few] раза
        [many] раз
       *[other] раза
    } (с яйцами — { $eggs })
stats-deals = Раздачи: сыграно { $played }, выиграно { $won }, проиграно { $lost }, яйца — { $eggs }
stats-points =
    Набрано { $points } { $points ->
        [one] очко
        [few] очка
        [many] очков
       *[other] очка
    }
stats-empty = Вы ещё не сыграли ни одной партии. Начните: { $kozel }
stats-rules = 📜 { $rules }
stats-rating = Рейтинг: { $rating } ±{ $spread }, лучший — { $best } ({ $games } { $games ->
        [one] игра
        [few] игры
        [many] игр
       *[other] игры
    } с рейтингом)
stats-rating-last = Последние изменения: { $changes }
stats-partner =
    Лучший напарник: { $name } — { $won } { $won ->
        [one] победа
        [few] победы
        [many] побед
       *[other] победы
    } из { $played }
stats-rating-overall = 📈 Общий рейтинг: { $rating }, лучший — { $best } ({ $games } { $games ->
        [one] игра
        [few] игры
        [many] игр
       *[other] игры
    })

## Достижения

achievements-title = 🏅 Достижения!
achievements-line = { $icon } «{ $title }» — { $names }. { $phrase }
stats-achievements = 🏅 Достижения: { $list }
achievement-eggs = Яйца
achievement-eggs-phrase = 60 на 60: поровну, по-честному.
achievement-lucy = Люся
achievement-lucy-phrase = 120:0 — соперники даже взятки не понюхали.
achievement-kocherga = Кочерга
achievement-kocherga-phrase = Семёрка треф поймала даму. Дама такого не ждала.
achievement-praise-simple = Простая хвалёнка
achievement-praise-simple-phrase = Похвалился — и не соврал.
achievement-praise-pants = Штаны
achievement-praise-pants-phrase = Сыграл в штанах и не потерял их.
achievement-praise-mirror = Зеркало
achievement-praise-mirror-phrase = Свет мой, зеркальце, скажи, кто кон взял? Он, конечно.
achievement-molodka-30 = Молодка с приданым
achievement-molodka-30-phrase = Молодка взяла взятку на 30 очков и больше.
achievement-dry-series = Всухую
achievement-dry-series-phrase = 12:0 — ни одного очка поражения.
achievement-goats-with-eggs = Козлы с яйцами
achievement-goats-with-eggs-phrase = Бывает и с лучшими.
achievement-three-in-a-row = Сыгранная пара
achievement-three-in-a-row-phrase = Три победы подряд с одним напарником.
achievement-first-rated-game = Первая партия в зачёт
achievement-first-rated-game-phrase = Добро пожаловать за стол.
achievement-games-100 = Сотня
achievement-games-100-phrase = Сто партий в зачёт. Стол узнаёт вас по походке.

## Лучшие игроки

top-title-chat = 🏆 Лучшие игроки чата
top-title-global = 🏆 Лучшие игроки всех чатов
top-title-season = 🏆 Лучшие игроки чата за сезон { $season }
top-row =
    { $place }. { $name } — { $won } { $won ->
        [one] победа
        [few] победы
        [many] побед
       *[other] победы
    } из { $played } ({ $rate }%)
top-empty = Пока никто не доиграл ни одной партии.
top-rating-row =
    { $place }. { $name } — { $rating } · { $games } { $games ->
        [one] игра
        [few] игры
        [many] игр
       *[other] игры
    } · { $rate }% побед
top-rating-empty = Пока ни у кого нет { $games } игр с рейтингом (четыре человека за столом).
top-hint = Все чаты: { $top } { $all }
top-rules = 📜 { $rules }
top-usage = «{ $word }»? { $top } понимает правила, { $all }, { $season } и прошедший месяц, в любом порядке: { $top } { $classic }, { $top } { $yard } { $all }, { $top } { $season }, { $top } { $month } ГГГГ-ММ
top-usage-unnamed = { $top } понимает правила, { $all }, { $season } и прошедший месяц, в любом порядке: { $top } { $classic }, { $top } { $yard } { $all }, { $top } { $season }, { $top } { $month } ГГГГ-ММ
top-month-malformed = Это не месяц: напишите его как ГГГГ-ММ, например { $top } { $month } { $example }
top-month-future = Сезон { $asked } ещё не начался: сейчас идёт { $current }.

## Напоминания и уведомления

reminder-turn =
    ⏰ { $name }, ваш ход! { $seconds ->
        [one] Осталась { $seconds } секунда.
        [few] Остались { $seconds } секунды.
        [many] Осталось { $seconds } секунд.
       *[other] Осталось { $seconds } секунды.
    }
notice-away = 💤 { $name } пропускает ходы — пока за этого игрока ходит компьютер. Любая кнопка — и игрок снова в игре.
notice-back = 👋 { $name } снова в игре.
notice-refused-team-has-queen = 🙅 { $name } просит пересдачу без дам — отказ: у пары есть дама.
notice-auto-move = ⏱ Время вышло: за игрока { $name } походил компьютер.
notice-started = 🃏 Игра началась! Свои карты смотрите в личном чате со мной или по кнопке «Мои карты».
notice-cancelled = Игра отменена.
notice-lang-switched = Готово: теперь я говорю по-русски.
notice-lang-own = Готово: с вами я теперь говорю по-русски (ваши карты и ответы вам). Язык группы ({ $group }) меняют её администраторы.
notice-lang-usage = Язык: { $language }. Сменить: { $platform ->
        [discord] { $lang } и язык из списка
       *[other] { $lang } ru или { $lang } en
    }
notice-dm-needed = { $name }, чтобы получать карты, откройте личный чат со мной и нажмите «Старт», потом вернитесь сюда.
notice-dm-button = 💬 Открыть чат со мной
notice-dm-hello = Привет! Сюда я буду присылать ваши карты. Возвращайтесь в чат с игрой.
notice-no-hand = Вы не сидите ни за одним идущим столом. Карты придут сюда, как только начнётся игра, в которую вы сели.
notice-answers-dropped = Слишком много команд сразу в этом чате: на некоторые я не ответил. Повторите через минуту.
notice-group-only = Играть можно только в группе или на сервере: добавьте меня в чат и наберите { $kozel }.

## Ошибки: err- + код

err-generic = Что-то пошло не так. Попробуйте ещё раз.
err-unknown-game = Этой игры больше нет.
err-game-over = Эта игра уже закончилась.
err-game-running = В этом чате уже идёт игра.
err-game-not-started = Игра ещё не началась.
err-game-started = Игра уже началась.
err-stale = Эта кнопка устарела — посмотрите свежее сообщение.
err-stale-console = Этот ход уже неактуален — посмотрите на стол ещё раз.
err-malformed = Не понял эту команду.
err-not-seated = Вы не сидите за этим столом.
err-already-seated = Вы уже за столом.
err-team-full = В этой команде нет свободных мест.
err-table-not-full = Нужны четыре игрока: займите места или посадите ботов.
err-not-creator = Это может только тот, кто собрал стол.
err-not-allowed = Так нельзя.
err-no-such-seat = Такого места нет.
err-bad-setting = Такой настройки нет.
err-cannot-message = Не могу написать вам в личку: откройте чат со мной и нажмите «Старт».
err-no-stats = Статистики пока нет — сыграйте хотя бы одну партию.
err-not-here = Эта кнопка — от игры другого чата.
err-not-yours = Это сообщение другого игрока.
err-not-member = Сесть за стол могут только участники чата этой игры.
err-bad-link = Эта ссылка никого не сажает за стол: нажмите «Сесть в команду» у стола в группе ещё раз.
err-too-many-commands = Не так быстро: слишком много команд подряд. Снова отвечу вам через минуту.
err-too-many-presses = Не так быстро: слишком много нажатий подряд. Подождите несколько секунд.
err-not-here-console = Это относится к игре другого чата.
err-bad-link-console = Эта ссылка никого не сажает за стол.
err-bad-seat = Такого места за столом нет.
err-not-your-turn = Сейчас не ваш ход.
err-deal-over = Раздача уже окончена.
err-series-over = Партия уже окончена.
err-deal-not-over = Раздача ещё не окончена.
err-no-cards = Сначала выберите карты.
err-duplicate-cards = Одна и та же карта выбрана дважды.
err-not-in-hand = Этой карты у вас нет.
err-too-many-cards = Заходить можно с одной–четырёх карт.
err-mixed-suits = Заходить можно только картами одной масти.
err-wrong-count = Нужно положить столько же карт, сколько в заходе.
err-does-not-beat = Эти карты не бьют то, что сейчас берёт взятку.
err-must-lead = Взятка ещё не начата: нужно зайти.
err-already-led = Заход уже был: бейте или скидывайте.
err-molodka-not-held = В начале взятки у вас не было молодки.
err-molodka-by-leader = Заходивший не может перебить взятку молодкой.
err-molodka-not-nearest = Молодка есть и у игрока ближе к заходившему — право за ним.
err-molodka-already = В этой взятке молодка уже была.
err-molodka-cards = Молодка — это все четыре ваши карты одной масти.
err-unknown-card = Нет такой карты.
err-unknown-action = Нет такого хода.
err-bad-deck = Колода должна состоять из 36 разных карт.
err-bad-record = Это не запись игры.
err-bad-dealer = Сдавать должен игрок, сидящий перед взявшим последнюю взятку.
err-unknown-rule-set = Таких правил нет.
err-no-such-rules = Нет правил «{ $word }»: выберите { $yard } или { $classic }.
err-no-such-rules-unnamed = Таких правил нет: выберите { $yard } или { $classic }.
err-bad-options = Эти настройки не подходят к этим правилам.
err-game-finished = Игра уже окончена: у одной из команд шесть пар.
err-wrong-step = Сейчас такой ход невозможен.
err-missing-argument = Выберите карту (или масть) для этого хода.
err-praise-kind-required = Скажите, какую хвалёнку играете: простую, штаны или зеркало.
err-praise-kind-mismatch = За этим столом другая хвалёнка.
err-not-in-pair = Положите одну из двух карт последней пары.
err-cut-out-of-range = Сдвиньте хотя бы одну карту и оставьте хотя бы одну.
err-must-follow-suit = Нужно ходить в масть.
err-must-play-trump = Нужно положить козырь.
err-must-play-trump-suit = Нужно положить карту козырной масти.
err-must-play-permanent-trump = Нужно положить постоянный козырь: даму, валета или кочергу.
err-ace-banned = Нельзя сносить туза масти, в которую ещё не ходили.
err-trump-lead-forbidden = С козыря ходит только хвалящийся: ходите простой картой.
err-not-one-trump = Отдать последний козырь можно, только если он у вас один.
err-already-offered = Вы уже предлагали последний козырь.
err-offer-pending = Ждём ответа партнёра на предложение.
err-no-offer = Вам никто не предлагал козырь.
err-must-give-plain = Отдайте в обмен не козырную карту.
err-play-started = После первого хода так нельзя.
err-with-declarer = В коне с хвалящимся так нельзя.
err-option-off = Правила этого стола этого не позволяют.
err-redeal-not-allowed = Пересдача — только при 12 очках и меньше на руках или четырёх девятках.
err-team-has-queen = У вашей пары есть дама (не бубновая): пересдачи не будет.

## Ход игры: по строке на каждое открытое событие (консоль и последняя строка стола).
log-lead = { $name } заходит: { $cards }
log-lead-you = Вы заходите: { $cards }
log-beat = { $name } бьёт: { $cards }
log-beat-you = Вы бьёте: { $cards }
log-discard = { $name } скидывает { $count ->
    [one] { $count } карту
    [few] { $count } карты
   *[other] { $count } карт
} рубашкой вверх
log-discard-you = Вы скидываете { $count ->
    [one] { $count } карту
    [few] { $count } карты
   *[other] { $count } карт
} рубашкой вверх
log-molodka-restarts = { $name } объявляет молодку: { $cards }! Взятка разыгрывается заново.
log-molodka-restarts-you = Вы объявляете молодку: { $cards }! Взятка разыгрывается заново.
log-molodka-opens = { $name } объявляет молодку: { $cards }! Взятка начинается с молодки.
log-molodka-opens-you = Вы объявляете молодку: { $cards }! Взятка начинается с молодки.
log-trick = { $name } забирает взятку ({ $count ->
    [one] { $count } карта
    [few] { $count } карты
   *[other] { $count } карт
})
log-trick-you = Вы забираете взятку ({ $count ->
    [one] { $count } карта
    [few] { $count } карты
   *[other] { $count } карт
})
log-deal = Раздача { $number }: сдаёт { $name }, заходит { $leader }. Козырь: { $card }
log-deal-you-deal = Раздача { $number }: сдаёте вы, заходит { $leader }. Козырь: { $card }
log-deal-you-lead = Раздача { $number }: сдаёт { $name }, заходите вы. Козырь: { $card }

## Игра в терминале
console-welcome = Козёл в терминале. Вы сидите на месте { $seat } (места 0–3 по часовой стрелке; 0 и 2 — команда A), ваш напарник — { $partner }, против вас { $left } и { $right }. Справка: ?, правила: r
console-resumed = Ваша неоконченная партия снова на столе. Чтобы бросить её и начать новую, запустите: { $command }
console-saved-differs = Сохранённая партия — { $saved }, а вы просили { $asked }. Она продолжится как сохранена; чтобы бросить её и начать то, что вы просили, запустите: { $command }
console-abandoned = Сохранённая партия ({ $saved }) брошена; начинается новая.
console-game = { $rules }, { $options }, компьютеры: { $level }
console-game-no-options = { $rules }, компьютеры: { $level }
console-rules-options = Настройки этого стола: { $options }.
console-help =
    Карты нумеруются по порядку в вашей руке.
      1 3     сыграть карты 1 и 3 (зайти ими, побить, если бьют, иначе скинуть)
      b 1 3   побить картами 1 и 3
      d 1 3   скинуть карты 1 и 3 рубашкой вверх
      m       объявить молодку
      a       пусть компьютер (уровня стола) сходит за вас
      r       правила этого стола
      t       показать стол
      q       выйти; партия сохранена и продолжится в следующий раз
console-hand = Ваши карты: { $cards }
console-legal = Можно: { $moves }
console-prompt = Ваш ход>
console-not-understood = Не понял: «{ $input }». Справка: ?
console-no-such-card = В вашей руке нет карты { $number }.
console-saved = Партия сохранена. Чтобы продолжить, запустите: { $command }
console-record-written = Запись игры сохранена в { $path }
console-summary = Раздач: { $deals }. Очки поражения: команда A — { $a }, команда B — { $b }.
console-move-lead = зайти
console-move-beat = побить
console-move-discard = скинуть
console-move-molodka = объявить молодку
console-you = Игрок (вы)

console-team = Вы играете за команду { $team }, ваш напарник — { $partner }.
console-follow =
    Отвечайте { $count ->
        [one] { $count } картой
        [few] { $count } картами
        [many] { $count } картами
       *[other] { $count } картами
    }: побейте или скиньте рубашкой вверх.
console-seed-differs = Эта сохранённая партия перемешана с --seed { $saved }, а не { $seed }: она продолжится как сохранена, и в её записи останется seed { $saved }.
console-seed-none = Эта сохранённая партия перемешана без --seed, а не с { $seed }: она продолжится как сохранена, и в её записи seed не будет.
console-database-in-use = База данных { $path } занята другим Козлом (ботом или игрой в другом терминале). Сначала остановите его или выберите другую базу через --db.
console-record-no-folder = Не могу записать игру в { $path }: нет папки { $folder }. Игра не начата.
console-record-is-folder = Не могу записать игру в { $path }: это папка. Игра не начата.
console-record-not-writable = Не могу записать игру в { $path }: нет прав на запись. Игра не начата.
console-record-failed = Запись игры не удалось сохранить в { $path } ({ $problem }); партия осталась в базе данных.
console-log-unwritable = Не могу писать журнал в { $path } ({ $problem }). Игра не начата.
cli-error = { $prog }: { $problem }
cli-see-help = Все параметры: { $prog } --help
cli-invalid-choice = { $argument } принимает { $choices }, а не «{ $value }»
cli-invalid-number = { $argument } принимает число, а не «{ $value }»
cli-expected-value = { $argument }: нужно значение
cli-unrecognized = не понял: { $words }
cli-required = не хватает: { $arguments }
cli-bad-seats = --seats — это четыре слова you или bot, you не больше одного раза, например you,bot,bot,bot, bot,you,bot,bot или bot,bot,bot,bot
cli-unknown-option = --option «{ $word }»: это не имя=значение настройки правил { $rules } ({ $names })
cli-option-value = --option { $name }={ $value }: { $name } принимает { $values }
cli-unknown-preset = --preset { $name }: у правил { $rules } нет такого набора (есть: { $names })
console-needs-sqlite = Игра в терминале хранит партии в SQLite, а не в PostgreSQL: укажите файл через --db sqlite:///kozel.sqlite3.
console-database-unavailable = Игра не может начаться: { $reason }.

## Discord: имена слеш-команд и их параметров (строчные, без пробелов, не длиннее 32 знаков)

cmd-name-kozel = козёл
cmd-name-top = топ
cmd-name-stats = статистика
cmd-name-rules = правила
cmd-name-lang = язык
cmd-name-help = помощь
cmd-name-stop = стоп
cmd-option-all = все
cmd-option-all-about = Лучшие игроки всех чатов
cmd-option-season = сезон
cmd-option-season-about = Лучшие игроки чата в этом месяце
cmd-option-month = месяц
cmd-option-month-about = Лучшие игроки прошедшего месяца: ГГГГ-ММ (например, 2026-11) или прошлый
cmd-option-user = игрок
cmd-option-user-about = Чья статистика (ваша, если не указать)
cmd-option-rules = вариант
cmd-option-rules-about = Какие правила
cmd-option-language = язык
cmd-option-language-about = Язык этого чата

## Discord: личные сообщения и карты только для вас

discord-dm-closed = Я не могу писать вам в личные сообщения, поэтому карты туда не придут. Разрешите личные сообщения от участников этого сервера (название сервера → Настройки конфиденциальности) или берите карты кнопкой «🃏 Мои карты» на столе.
discord-dm-closed-public = { $mention }, я не могу писать вам в личные сообщения. Разрешите их (название сервера → Настройки конфиденциальности) или берите карты кнопкой «🃏 Мои карты» на столе.
discord-hand-here = Ваши личные сообщения закрыты, поэтому карты видны только здесь. Если это сообщение перестало меняться, снова нажмите «🃏 Мои карты» на столе.
discord-to-table = ↪ К столу

## Хвалёный козёл: стол, карты игрока, итоги, настройки

classic-title = 🐐 { $rules } · кон { $number }{ $attempt ->
    [1] {""}
   *[other] , раздача { $attempt }
}
classic-dealer = Сдаёт { $name }
classic-dealer-you = Сдаёте вы
classic-trump = Козырь: { $suit }; { $kocherga ->
    [yes] дамы, валеты и кочерга
   *[other] дамы и валеты
} — всегда козыри
classic-trump-none = Бескозырка: козыри — только { $kocherga ->
    [yes] дамы, валеты и кочерга
   *[other] дамы и валеты
}
classic-trump-unset = Козырная масть ещё не назначена; { $kocherga ->
    [yes] дамы, валеты и кочерга
   *[other] дамы и валеты
} — всегда козыри
classic-praise-simple = простая
classic-praise-pants = штаны
classic-praise-mirror = зеркало
classic-praise-choose = на выбор хвалящегося
classic-praise-one-by-one = по одной
classic-declarer = Хвалится { $name }: { $kind }
classic-declarer-you = Вы хвалитесь: { $kind }
classic-shown = Хвалящемуся пришли в открытую: { $cards }
classic-laid = На столе лежат: { $cards }
classic-exchanged = { $name } отдал последний козырь игроку { $partner } и получил карту взамен (карты не видны)
classic-exchanged-you = Вы отдали последний козырь игроку { $partner } и получили карту взамен
classic-offered = { $name } предлагает напарнику последний козырь
classic-offered-you = Вы предлагаете напарнику последний козырь
classic-redeal-asked = { $name } просит пересдачу и показывает: { $cards }
classic-redeal-asked-you = Вы просите пересдачу и показываете: { $cards }
classic-trick = Взятка { $number }: { $plays }
classic-trick-empty = Взятка { $number }: на столе пусто
classic-last-trick = Прошлая взятка: { $plays }
classic-points = Очки: A { $a } · B { $b } · взятки A { $ta } · B { $tb }
classic-pairs = Пары: A { $a } · B { $b } (до { $limit })
classic-egg-pairs =
    🥚 { $count ->
        [one] { $count } яичная пара ждёт
        [few] { $count } яичные пары ждут
        [many] { $count } яичных пар ждут
       *[other] { $count } яичной пары ждут
    } победителя следующего кона
classic-fixed-suits = Масти рулетки: { $suits }
classic-decision-time = { $line }, осталось { $time }
classic-wait-praise = ⏳ { $name } решает: сдавать или хвалиться
classic-wait-praise-you = ⏳ Ваше решение: сдавать или хвалиться
classic-wait-lay = ⏳ { $name } выбирает, какую карту положить
classic-wait-lay-you = ⏳ Ваш выбор: какую карту положить
classic-wait-cut = ⏳ { $name } сдвигает колоду
classic-wait-cut-you = ⏳ Ваша очередь сдвигать колоду
classic-wait-name = ⏳ { $name } назначает козырь
classic-wait-name-you = ⏳ Ваша очередь назначить козырь
classic-wait-answer = ⏳ { $name } отвечает на предложение последнего козыря
classic-wait-answer-you = ⏳ Ваш ответ на предложение последнего козыря
classic-hand-not-dealt = Карты ещё не розданы.
classic-hand-pair = Ваша последняя пара: { $cards }
classic-hand-laid = Ваша карта на столе: { $card }
classic-hand-exchange = Вы отдали { $given } и получили { $got }
classic-ask-praise = 👉 Ваше решение: скажите «сдавай» или хвалитесь и играйте за хвалящегося.
classic-ask-lay = 👉 Положите на стол одну карту последней пары; другая останется у вас.
classic-ask-cut = 👉 Сдвиньте колоду: сколько карт снять сверху?
classic-ask-name = 👉 Назначьте козырную масть или играйте бескозырку.
classic-ask-answer = 👉 Напарник отдаёт вам последний козырь: возьмите его и отдайте карту взамен или откажитесь.
classic-ask-play = 👉 Ваш ход: нажмите на карту, чтобы сыграть её.
classic-ask-before-lead = До первого хода можно отдать последний козырь или попросить пересдачу.
classic-button-deal = Сдавай
classic-button-praise = 📣 Хвалюсь
classic-button-praise-simple = 📣 Хвалюсь: простая
classic-button-praise-pants = 📣 Хвалюсь: штаны
classic-button-praise-mirror = 📣 Хвалюсь: зеркало
classic-button-praise-one-by-one = 📣 Хвалюсь: по одной
classic-button-card = { $card }
classic-button-lay = Положить { $card }
classic-button-cut =
    ✂ { $count }
classic-button-cut-anywhere = ✂ Где угодно
classic-button-no-trump = Бескозырка
classic-no-trump = бескозырка
classic-button-give = Отдать { $card }
classic-button-decline = Не надо
classic-button-offer = 🎁 Отдать последний козырь
classic-button-redeal = 🔄 Пересдача
classic-result-title = 🃏 Кон { $number } окончен
classic-result-redeal = 🔄 Кон { $number }: пересдача. Тот же игрок сдаёт заново, очков никто не получает.
classic-result-kocherga = 🪝 Кочерга поймала даму треф! { $team } выигрывает кон.
classic-result-redeal-penalty = 🔄 Третья просьба о пересдаче: { $team } сдавала и проигрывает кон.
classic-result-eggs =
    🥚 Яйца: 60 на 60! Победителю следующего кона достанется { $count ->
        [one] { $count } яичная пара
        [few] { $count } яичные пары
        [many] { $count } яичных пар
       *[other] { $count } яичной пары
    }.
classic-result-pairs =
    { $team } получает { $count } { $count ->
        [one] пару
        [few] пары
        [many] пар
       *[other] пары
    }.
classic-result-lucy = 🙈 Люся! { $team } не взяла ни одной взятки: её пары сгорают.
classic-game-over =
    🏁 Партия окончена: { $deals } { $deals ->
        [one] кон
        [few] кона
        [many] конов
       *[other] кона
    }
classic-goats-tails = 🐐 Козлы с хвостами: { $names }!
classic-goats-eggs-tails = 🐐🥚 Козлы с яйцами и хвостами: { $names }!
classic-options = Настройки: { $options }
classic-options-default = Правила 003: Геймсберг
classic-options-preset = Правила { $preset }
classic-options-preset-but = Правила { $preset }, но: { $options }
classic-preset-001 = 001: дамы, вальты и бубны
classic-preset-003 = 003: Геймсберг
classic-preset-choice-001 = Хвалёный козёл 001: дамы, вальты и бубны
classic-preset-button-001 = 001: дамы, вальты, ♦
classic-preset-button-003 = 003: Геймсберг
classic-option-praise-simple = хвалёнка: простая
classic-option-praise-pants = хвалёнка: штаны
classic-option-praise-mirror = хвалёнка: зеркало
classic-option-praise-choose = хвалёнка: на выбор
classic-option-praise-one-by-one = хвалёнка: по одной
classic-option-kocherga-on = с кочергой
classic-option-kocherga-off = без кочерги
classic-option-trump-roulette-on = козырная рулетка
classic-option-trump-roulette-off = без рулетки
classic-option-ace-ban-on = туза не сносить
classic-option-ace-ban-off = туза сносить можно
classic-option-last-trump-on = отдача козыря
classic-option-last-trump-off = без отдачи козыря
classic-option-redeal-on = пересдача
classic-option-redeal-off = без пересдачи
classic-option-trump-suit = козырь: { $suit }
classic-option-trump-suit-none = козырь: по кону
classic-option-follow-suit-first = сперва козырная масть
classic-option-follow-any-trump = любой козырь
classic-option-trump-lead-declarer = с козыря: хвалящийся
classic-option-trump-lead-team = с козыря: его пара
classic-option-trump-lead-non-dealers = с козыря: не сдающие
classic-option-dealers-jc-holder = сдаёт валет ♣
classic-option-dealers-clockwise = сдают по кругу
classic-option-first-leader-jc-holder = первый ход: валет ♣
classic-option-first-leader-ad-holder = первый ход: туз ♦
classic-option-deal-by-1 = сдача по одной
classic-option-deal-by-4 = сдача по четыре
classic-option-eggs-carry = яйца: пара в запас
classic-option-eggs-replay = яйца: переиграть
classic-option-lucy-reset = Люся: обнуляет
classic-option-lucy-win = Люся: победа
classic-option-redeal-queens-on = пересдача без дам
classic-option-redeal-queens-off = без дам не пересдают
classic-log-dealing = Кон { $number }{ $attempt ->
    [1] {""}
   *[other] , раздача { $attempt }
}: сдаёт { $name }
classic-log-dealing-you = Кон { $number }{ $attempt ->
    [1] {""}
   *[other] , раздача { $attempt }
}: сдаёте вы
classic-log-deal = { $name }: «Сдавай»
classic-log-deal-you = Вы: «Сдавай»
classic-log-praise = { $name } хвалится: { $kind }
classic-log-praise-you = Вы хвалитесь: { $kind }
classic-log-cut = { $name } сдвигает колоду на { $count } { $count ->
    [one] карту
    [few] карты
    [many] карт
   *[other] карты
}
classic-log-cut-you = Вы сдвигаете колоду на { $count } { $count ->
    [one] карту
    [few] карты
    [many] карт
   *[other] карты
}
classic-log-lay = { $name } кладёт { $card }
classic-log-lay-you = Вы кладёте { $card }
classic-log-name = { $name } назначает козырь: { $suit }
classic-log-name-you = Вы назначаете козырь: { $suit }
classic-log-offer = { $name } предлагает напарнику последний козырь
classic-log-offer-you = Вы предлагаете напарнику последний козырь
classic-log-accept = { $name } берёт козырь и отдаёт карту взамен
classic-log-accept-you = Вы берёте козырь и отдаёте карту взамен
classic-log-decline = { $name }: «Не надо»
classic-log-decline-you = Вы: «Не надо»
classic-log-redeal = { $name } просит пересдачу: { $cards }
classic-log-redeal-you = Вы просите пересдачу: { $cards }
classic-log-play = { $name } ходит { $card }
classic-log-play-you = Вы ходите { $card }
classic-log-trick = { $name } берёт взятку
classic-log-trick-you = Вы берёте взятку
classic-log-kocherga = { $name } ловит даму треф кочергой!
classic-log-kocherga-you = Вы ловите даму треф кочергой!
classic-console-no-such-choice = Нет варианта { $number }.
classic-console-not-offered = Сейчас нельзя: { $cards }
classic-why-must-follow-suit = надо в масть
classic-why-must-play-trump = зашли с козыря
classic-why-must-play-trump-suit = сначала козырная масть
classic-why-must-play-permanent-trump = сначала дама, валет или кочерга
classic-why-ace-banned = запрет сноса туза
classic-why-trump-lead-forbidden = { $who ->
    [team] с козырей ходит только пара хвалящегося
   *[declarer] с козырей ходит только хвалящийся
}
classic-why-other = нельзя
classic-console-help =
    Ваши варианты пронумерованы после «Можно:»; «Сейчас нельзя:» говорит, почему карты нет среди них.
      3       выбрать вариант 3 (карту, решение, ответ)
      a       пусть ход выберет компьютер (уровня стола)
      r       правила этого стола
      t       показать стол
      q       выйти; игра сохранена и продолжится в следующий раз
classic-console-summary =
    Конов: { $deals }. Пары: команда A { $a }, команда B { $b }.

# kozel play --web: стол в браузере рядом с терминалом.
console-web-links = Стол в браузере: { $player } (для зрителей: { $spectators })
console-web-spectators = Стол в браузере, для зрителей: { $spectators }
console-web-unavailable = Не могу открыть стол в браузере на { $address }: { $problem }. Игра не начата; выберите другой --web-port.
console-web-bad-port = --web-port { $port }: порт — число от 0 до 65535 (0 — любой свободный).
