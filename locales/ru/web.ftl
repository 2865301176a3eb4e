## The web table (adapters/web): the server's words. The page's own words are the
## other "web-" messages; GET /api/strings gives every "web-" message to the page.

# Badges of a seat.
webview-mark-dealer = сдаёт
webview-mark-declarer = хвалился

# A team's line of the score.
webview-score-yard = { $loss } из { $limit } · взяток: { $tricks }
webview-score-classic = пар: { $pairs } из { $limit }

# Why a page cannot show a table (the page shows the line and does not reconnect).
web-error-auth = Ссылка не подходит. Откройте стол заново из чата.
web-error-expired = Ссылка устарела. Откройте стол заново из чата.
web-error-revoked = Эта ссылка отозвана. Попросите новую в чате.
web-error-not-found = Такой игры нет (или она давно закончилась).
web-error-rate = Слишком много сообщений: подождите немного.
web-error-too-big = Слишком длинное сообщение.
web-error-bad-message = Непонятное сообщение.
web-error-too-many = Слишком много открытых окон этого стола.

# The buttons and messages that lead to the web table.
web-table-button = 🃏 Стол
web-hand-button = 🃏 Стол в браузере
web-link-button = Открыть стол в браузере
web-link-text = Ваша ссылка на стол (только для вас):
web-link-spectator = Ссылка для зрителей:
web-choice = 🃏 Стол в браузере (ссылка только для вас)
web-new-choice = 🃏 Новая ссылка на стол (старые перестанут работать)
web-renew-text = Старые ссылки на ваше место больше не работают, открытые по ним страницы закрыты. Ваша новая ссылка (только для вас):
web-renew-not-seated = Вы не сидите за этим столом: отзывать нечего. Новую ссылку получает только игрок на своё место.
web-renew-hands = Старые ссылки на стол в браузере (кнопки под вашими картами) больше не работают, открытые по ним страницы закрыты. Ниже ваши карты с новыми ссылками.
web-renew-no-links = Под вашими картами нет ссылок на стол в браузере: отзывать нечего.
web-link-off = Стол в браузере не включён на этом боте.
web-link-none = Сейчас вы не сидите ни за одним столом.
web-error-not-participant = Вы не участвуете в этой активности. Присоединитесь к ней в Discord и откройте её снова.
web-error-no-game = В этом канале нет игры. Начните её командой /kozel здесь и откройте активность снова.
web-error-challenge = Это раздача вызова: открыть её может только тот, кто её играет (другие играют те же карты).
web-error-unavailable = Discord сейчас не отвечает. Пробуем ещё раз…
web-activity-choice = 🃏 Стол в Discord (активность в этом канале)
web-activity-refused = Discord не запустил здесь стол как активность. Откройте его через «🃏 Стол в браузере».
