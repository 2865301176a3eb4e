# Козёл — слова самой страницы стола в браузере (adapters/web/static); их отдаёт
# GET /api/strings вместе с web-сообщениями сервера (web.ftl). Без аргументов:
# страница показывает их как есть.

web-connecting = Подключаюсь к столу…
web-reconnecting = Связь прервалась. Подключаюсь снова…
web-closed = Этот стол для вас закрыт. Откройте его заново из сообщения бота.
web-no-link = Откройте стол кнопкой или ссылкой из сообщения бота.
web-spectator = Зритель
web-you-tag = вы
web-computer = бот
web-away = нет на месте
web-stock = Колода
web-no-trump = Без козыря
web-log = Ходы
web-close = Вернуться к столу
web-select-hint = Нажмите на свои карты, чтобы выбрать
web-lobby = Игра ещё не началась
web-over = Игра окончена
web-cancelled = Игра отменена
web-title = Козёл
web-discord-signing-in = Спрашиваем у Discord, кто вы…
web-discord-refused = Discord не сообщил столу, кто вы. Закройте активность и откройте её снова.
web-your-time = Ваш ход, осталось
web-share = 📤 Поделиться итогом
