"""Creating games: a new game, and the rematch of a finished online game.

A rematch (`rematch`) is a new online game between the same two players, the seats
swapped: each sits in the other seat than before (so the other colour, and in a
practice game, whose seed it keeps, the other side of the same position). Whoever
asks first makes it: they take their new seat, and the other seat waits for the
friend with a fresh invitation (a code and a link, as a new online game's), marked as
the rematch of the old game (``invitations.rematch_of``, unique). The friend accepts by
asking for the rematch too, with the old game's token: that claims the waiting seat,
under the friend's name, with no code. A rematch whose invitation expired unclaimed
makes way for a new one.

A game created for a client address (the API's) stores a keyed hash of it
(`security.client_key`); past `active_games_per_client` active games of that
address, creating another (a rematch too) is refused (`TooManyGames`). Callers
without an address (the CLI, simulations) have no cap.
"""

from __future__ import annotations

import uuid
from datetime import date

from ..domain.commands import NewGame
from ..domain.retention import abandon_reason
from ..domain.seeds import new_seed
from ..domain.start import start_game, start_state
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import InviteClaimed, NoRematch, NotOnline, RematchExists, TooManyGames
from ..store import Invitation, RematchTaken, StoredGame, UnitOfWork
from . import security
from .online import OnlineService
from .results import CreatedGame, Rematch, SignedIn, WaitingRematch
from .seating import check_rated_seat, check_seat_holder, seated
from .shown import names, shown_now


class CreationService(OnlineService):
    def create_game(self, *, player_name: str, difficulty: str = "moderate",
                    mode: str = "vs_computer", seed: int | None = None,
                    height: int = 19, width: int = 33, second_name: str | None = None,
                    second_level: str | None = None, hints: bool | None = None,
                    client_address: str | None = None,
                    signed_in: SignedIn | None = None, rated: bool = False) -> CreatedGame:
        """A new game: ranked, with a secret seed (`domain.seeds`), unless the caller
        chose a `seed`, which makes it a practice game (its seed public, its scores
        never in the high score table). `hints`: whether the seat to move may ask for
        hints (None: yes, except in an online game). `client_address`: who asks (the
        API), for the cap on active games per address (`TooManyGames`); None (the
        CLI) has no cap. `signed_in`: the caller's session, which a name someone
        holds needs (`seating`), and a `rated` online game (``rated_needs_sign_in``
        unless the creator plays it signed in, under their own name)."""
        command = NewGame(
            seed=new_seed() if seed is None else seed, ranked=seed is None, hints=hints,
            player_name=player_name, difficulty=difficulty, mode=mode,
            height=height, width=width, second_name=second_name, second_level=second_level,
            rated=rated,
        )
        creator = self._creator(client_address)
        with self.store.unit_of_work() as uow:
            return self._add(uow, command, creator, signed_in=signed_in)

    def _creator(self, client_address: str | None) -> str | None:
        return (None if client_address is None
                else security.client_key(client_address, self.settings.client_salt))

    def _add(self, uow: UnitOfWork, command: NewGame, creator: str | None,
             rematch_of: str | None = None, *, signed_in: SignedIn | None,
             daily: date | None = None) -> CreatedGame:
        """Store the game `command` starts, in `uow`, with its token (and an online
        game's invitation to the open seat), its human seats by player record.
        `daily`: the date of a daily challenge game (`daily`), which its state knows
        from the start (its seed stays secret when it ends)."""
        start_game(command)  # refuses a bad command before any record is made
        command = seated(uow, command, signed_in, self.clock())
        if command.rated:
            check_rated_seat(command.player, signed_in)
        events = start_game(command)
        state = start_state(command, events)
        state.daily = daily
        token, salt, token_hash = security.new_token_hash()
        game_id = uuid.uuid4().hex
        if creator is not None:
            self._check_cap(uow, creator)
        stored = uow.add_game(game_id, events, state, token_hash=token_hash,
                              token_salt=salt, creator=creator,
                              seed_secret=state.secret_seed if command.ranked else None)
        invite = None
        if state.open_seat is not None:
            invite = self._invite(uow, game_id, seat=state.open_seat, rematch_of=rematch_of)
        shown, stored = shown_now(uow, game_id, state.copy(), stored)
        return CreatedGame(game_id, token, stored, shown, invite)

    def _check_cap(self, uow: UnitOfWork, creator: str) -> None:
        """`TooManyGames` when the address hashed to `creator` has its cap of live
        games (active and not due to be abandoned). Soft on PostgreSQL: creations
        from one address at the same instant may each see the count below it."""
        cap = self.active_games_per_client
        if cap == 0:
            return
        now = self.clock()
        held = uow.games.live_of_creator(creator, now, now - self.abandon_after)
        if held >= cap:
            raise TooManyGames(
                english("this address has {held} active games, the most it may have; "
                        "finish one, or wait until one is abandoned", held=held), limit=cap)

    # -- rematches ---------------------------------------------------------------------
    def rematch(self, game_id: str, token: str | None,
                client_address: str | None = None,
                signed_in: SignedIn | None = None) -> Rematch:
        """The rematch of finished online game `game_id` for the player holding
        `token` (a seat's token of that game): made if none waits (`created`, with
        the friend's invite), accepted if the friend made it.

        `NotOnline` for another mode, `NoRematch` while the game runs or when nobody
        joined it, `RematchExists` when the caller made the waiting rematch already,
        `InviteClaimed` when its seat is taken, the token errors and `TooManyGames`
        as for any game, and `NameClaimed` when the caller's name is held by a player
        who is not signed in (`seating`); nothing is written then."""
        creator = self._creator(client_address)
        for attempt in range(2):
            try:
                with self.store.unit_of_work() as uow:
                    return self._rematch(uow, game_id, token, creator, signed_in)
            except RematchTaken:  # the friend's request made it at the same moment
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _rematch(self, uow: UnitOfWork, game_id: str, token: str | None,
                 creator: str | None, signed_in: SignedIn | None) -> Rematch:
        game, state = uow.state(game_id)
        if state.game.mode != "online":
            raise NotOnline(english("game {game_id} is not an online game", game_id=game_id),
                            game_id=game_id)
        (mine,) = self._token_seats(game, token, uow)
        if not state.over:
            raise NoRematch(english("the game is not over yet: finish it first"))
        if state.open_seat is not None:
            raise NoRematch(english("nobody joined this game: there is no friend to play again"))
        seat = state.seat_info(mine)
        check_seat_holder(uow, seat, signed_in, self.clock())
        waiting = self._waiting_rematch(uow, game_id)
        if waiting is not None:
            if waiting.seat != 3 - mine:  # the caller sits in it already
                raise RematchExists(english("you asked for this rematch already"),
                                    game_id=waiting.game_id)
            if waiting.claimed_at is not None:
                raise InviteClaimed(english("this rematch's seat is taken already"))
            new_game, new_state = uow.state(waiting.game_id)
            claimed = self._claim(uow, new_game, new_state, waiting, seat.name,
                                  signed_in=signed_in, player=seat.player)
            return Rematch(claimed.game_id, claimed.seat, claimed.token, claimed.events,
                           claimed.state, created=False)
        practice = not state.game.ranked
        command = NewGame(
            seed=state.seed() if practice else new_seed(), ranked=not practice,
            hints=state.game.hints, player_name=seat.name, player=seat.player, mode="online",
            height=state.height, width=state.width, creator_seat=3 - mine,
            rated=state.game.rated,
        )
        made = self._add(uow, command, creator, rematch_of=game_id, signed_in=signed_in)
        return Rematch(made.game_id, 3 - mine, made.token, made.events, made.state,
                       created=True, invite=made.invite)

    def waiting_rematch(self, game_id: str) -> WaitingRematch | None:
        """The rematch of `game_id` one of its players made, unless none waits (or
        its invitation expired unclaimed). Read only."""
        with self.store.unit_of_work(write=False) as uow:
            uow.games.get(game_id)  # GameNotFound
            waiting = uow.invitations.rematch_of(game_id)
            if waiting is None:
                return None
            rematch, state = uow.state(waiting.game_id)
            if waiting.claimed_at is None and self._expired(waiting, rematch, state):
                return None
        return WaitingRematch(waiting.game_id, waiting.seat, waiting.claimed_at is not None,
                              names(rematch)[2 - waiting.seat])

    def _expired(self, waiting: Invitation, rematch: StoredGame, state: GameState) -> bool:
        now = self.clock()
        return waiting.expires_at <= now or state.no_result or abandon_reason(
            state, last_event_at=rematch.summary.updated_at, now=now,
            abandon_after=self.abandon_after) is not None

    def _waiting_rematch(self, uow: UnitOfWork, game_id: str) -> Invitation | None:
        """The invitation of `game_id`'s rematch, unless it expired unclaimed (or its
        game was abandoned so, or its creator aborted it): then it makes way for a new
        one."""
        waiting = uow.invitations.rematch_of(game_id)
        if waiting is None or waiting.claimed_at is not None:
            return waiting
        rematch, state = uow.state(waiting.game_id)
        if not self._expired(waiting, rematch, state):
            return waiting
        uow.invitations.release_rematch(game_id)
        return None
