## Дубликатный турнир-вызов (bot/challenge.py, docs/tournaments.md).

err-challenge-unknown = Такого вызова нет. Вызов дня: /kozel challenge (или yard, classic).
err-challenge-not-yet = Вызов этого дня ещё не начался.
err-challenge-done = Вы сыграли все сдачи этого вызова. Его таблица: /top challenge
err-challenge-in-group = Вызов играют в личном чате с ботом, чтобы никто не увидел сдачу до своей игры: напишите боту /kozel challenge.
err-challenge-no-stop = Сдачу вызова доигрывают до конца: остановить её нельзя. Если вас нет дольше времени хода, за вас ходит компьютер.
err-challenge-no-rematch = У сдачи вызова нет реванша: /kozel challenge начнёт вашу следующую сдачу.

challenge-started = 🎯 Вызов { $id } ({ $rules }): сдача { $deal } из { $deals }. Партнёр и оба соперника — компьютер; у всех одни и те же сдачи.
challenge-made = 🎯 Новый вызов: { $id } ({ $rules }, { $deals ->
    [one] { $deals } сдача
    [few] { $deals } сдачи
   *[other] { $deals } сдач
    }). Друзья играют его командой /kozel challenge { $id }
challenge-deal-over = 🎯 Вызов { $id }: сдача { $deal } из { $deals } сыграна. Ваш проигрыш: { $loss }; в среднем у всех: { $average }.
challenge-score = Ваш счёт: { $score } после { $played ->
    [one] { $played } сдачи
   *[other] { $played } сдач
    }, место { $place } из { $entrants }.
challenge-next = ▶️ Следующая сдача
challenge-all-played = Вы сыграли все сдачи вызова { $id }. Таблица: /top challenge { $id }
challenge-top-title = 🎯 Вызов { $id } ({ $rules }): { $entrants ->
    [one] { $entrants } участник
    [few] { $entrants } участника
   *[other] { $entrants } участников
    }
challenge-top-row = { $place }. { $name }: { $score } ({ $deals ->
    [one] { $deals } сдача
    [few] { $deals } сдачи
   *[other] { $deals } сдач
    })
challenge-top-own = Вы: место { $place }, { $score } ({ $deals ->
    [one] { $deals } сдача
    [few] { $deals } сдачи
   *[other] { $deals } сдач
    })
challenge-top-empty = В вызове { $id } ещё никто не доиграл ни одной сдачи.
challenge-top-hint = Счёт: в каждой сдаче средний проигрыш всех минус ваш.

cli-help-challenge = сыграть вызов: его номер, или daily, yard, classic — вызов дня
challenge-console-quit = Сдача сохранена: та же команда продолжит её.
challenge-table-header = 🎯 Вызов { $id }: сдача { $deal } из { $deals }
challenge-resumed = 🎯 Ваша сдача { $deal } вызова { $id } продолжается: её стол выше.
challenge-word = вызов
cmd-option-challenge = вызов
cmd-option-challenge-about = Вызов (в личном чате с ботом): daily, yard, classic, classic 001 (новый) или его номер
cmd-option-challenge-top-about = Таблица вызова: daily, yard, classic или его номер
