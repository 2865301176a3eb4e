## Швейцарский вечер (bot/event.py, docs/tournaments.md).

err-event-not-admin = Турнир ведёт только админ группы.
err-event-in-private = Турнир играют в группе: откройте его там.
err-event-exists = В этом чате уже есть турнир: /event стоп завершит его.
err-event-none = В этом чате нет такого турнира.
err-event-not-open = Регистрация на турнир закрыта.
err-event-full = Турнир заполнен (32 пары); свободное место в паре ещё можно занять.
err-event-registered = Вы уже в паре этого турнира.
err-event-not-registered = Вы не в паре этого турнира.
err-event-pair-full = Эта пара уже собрана.
err-event-no-pair = Такой пары нет.
err-event-too-few = Турнир начинается, когда собраны хотя бы 4 пары (8 игроков).
err-event-bad-rounds = Раунды: число от 1 до 9, например /event открыть раунды 3
err-event-bad-reliability = Минимальная надёжность: процент от 0 до 100, например /event открыть надёжность 80
err-event-bad-deals = Раздачи: число от 1 до 9 (стол из стольких раздач), например /event открыть раздачи 2
err-event-bad-words = Пишите: /event открыть [yard|classic] [раунды N] [надёжность P] [раздачи N]; /event начать; /event снять N; /event стоп (или по-английски: open, rounds, min-reliability, deals, start, kick, stop)
err-event-unreliable = Ваша надёжность { $percent }%; турнир требует не меньше { $minimum }%.

event-registration = 🏆 Швейцарский вечер ({ $rules }): { $teams ->
    [one] зарегистрирована { $teams } пара
    [few] зарегистрированы { $teams } пары
   *[other] зарегистрировано { $teams } пар
    }. «Новая пара» открывает пару с вами; партнёр нажимает «Вступить» под ней.
event-rounds = Раундов: { $rounds }
event-deals = Стол: { $deals ->
    [one] { $deals } раздача
    [few] { $deals } раздачи
   *[other] { $deals } раздач
    }
event-min-reliability = Минимальная надёжность: { $minimum }%
event-open-seat = (свободно)
event-computers = компьютеры
event-new-pair = ➕ Новая пара
event-leave = Выйти
event-join = В пару { $team }
event-start = ▶️ Начать
event-round = 🏆 Раунд { $round } из { $rounds }:
event-table = Стол { $number }: { $a } — { $b }
event-standings = 📊 Таблица, раунд { $round } из { $rounds } (сыграно столов: { $done } из { $tables }):
event-final = 🏆 Итоговая таблица после { $rounds ->
    [one] { $rounds } раунда
   *[other] { $rounds } раундов
    }:
event-stopped = 🛑 Турнир остановлен. Таблица после раунда { $round }:
event-standing = { $place }. { $team }: { $points } (Бухгольц { $buchholz })
event-withdrawn = (снята)
event-kicked = Пара { $team } выбыла из турнира.
event-stopped-line = Турнир остановлен.
event-place = Место { $place }
event-picture-title = Швейцарский вечер: итоги
event-picture-subtitle = { $rules } · раундов: { $rounds } · пар: { $teams }
event-picture-third = { $place }. { $team }

cmd-event = Швейцарский вечер пар (админы группы: открыть, начать, снять, стоп)
cmd-name-event = турнир
cmd-option-event = слова
event-word-open = открыть
cmd-option-event-about = открыть [yard|classic] [раунды N] [надёжность P] [раздачи N]; начать; снять N; стоп
