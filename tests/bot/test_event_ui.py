async def test_stop_in_the_group_means_the_asker_s_own_table(ui: Interactions) -> None:
    events = ui.service.tournaments
    event = await opened(ui)
    for first, second in zip(PLAYERS[:8:2], PLAYERS[1:8:2], strict=True):
        event = await events.register(event.id, None, first)
        team = event.team_of(first.ref)
        assert team is not None
        event = await events.register(event.id, None, second, team.number)
    await events.start(event.id, None, ADMIN.ref, is_admin=True)
    player = PLAYERS[5]
    own = await events.table_of(GROUP, player.ref)
    assert own is not None
    refused = await ui.stop(GROUP, player.ref)  # not the creator, no admin
    assert refused.alert == ui.tr.t("ru", "err-not-allowed") and refused.game == own
    asked = await ui.stop(GROUP, player.ref, is_admin=True)
    assert asked.screen is not None and asked.game is not None and asked.game.id == own.id
    nobody = await ui.stop(GROUP, ADMIN.ref, is_admin=True)  # he sits at no table
    assert nobody.alert == ui.tr.t("ru", "err-unknown-game")
