"""Online games: the creator's invitation and a friend's claim of the second seat.

Creating an online game (`PlayService.create_game` with ``mode="online"``) stores
a one-time claim code next to it, as a salted hash, valid for
``SQUARES_INVITE_TTL_SECONDS``. The friend's claim, in one transaction, checks the
code, marks the invitation claimed (a compare-and-set, so a second claim finds it
taken), stores a hash of the new seat's own token and appends ``seat_claimed``
with the friend's name; neither secret enters the event stream. From then on each
seat's token moves only that seat (`ServiceBase._token_seats`).

An invitation not claimed in time abandons its game at once (`domain.retention`):
the claim answers `InviteExpired` and writes nothing; the next read of the game, or
the sweep, appends ``game_abandoned``.
"""

from __future__ import annotations

from datetime import timedelta

from ..domain.commands import ClaimSeat
from ..domain.fold import apply_all
from ..domain.retention import abandon_reason
from ..domain.rules import abandoned_violation, decide
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import InviteClaimed, InviteExpired, InviteInvalid, NotOnline
from ..ops.times import iso_utc
from ..store import Invitation, StoredGame, UnitOfWork
from . import security
from .base import ServiceBase
from .results import ClaimedSeat, Invite, SignedIn
from .seating import check_rated_claim, seat_player
from .shown import shown_now


class OnlineService(ServiceBase):
    def _invite(self, uow: UnitOfWork, game_id: str, seat: int = 2,
                rematch_of: str | None = None) -> Invite:
        """Store a fresh claim code for `game_id`'s open `seat` (a rematch's: the
        game it comes from); the code itself is returned once, here."""
        code, salt, code_hash = security.new_token_hash()
        expires_at = self.clock() + timedelta(seconds=self.invite_ttl_seconds)
        uow.invitations.add(game_id, code_hash=code_hash, code_salt=salt,
                            expires_at=expires_at, seat=seat, rematch_of=rematch_of)
        return Invite(code, expires_at)

    def claim_seat(self, game_id: str, code: str, name: str,
                   signed_in: SignedIn | None = None) -> ClaimedSeat:
        """Give the friend holding `code` the open seat of online game `game_id`.

        `InviteInvalid` for a wrong code, `InviteClaimed` once it was used,
        `InviteExpired` after its time, `NotOnline` for a game without invitation,
        a `RuleViolation` for a bad name, one that looks like another name in the
        high score table (``name_confusable``) or an abandoned game
        (``game_abandoned``); nothing is written then."""
        with self.store.unit_of_work() as uow:
            game, state = uow.state(game_id)
            invitation = uow.invitations.get(game_id)
            if invitation is None:
                raise NotOnline(english("game {game_id} is not an online game", game_id=game_id),
                                game_id=game_id)
            if not code or not security.token_matches(code, invitation.code_salt,
                                                      invitation.code_hash):
                raise InviteInvalid(english("wrong invitation code for this game"))
            if invitation.claimed_at is not None or state.open_seat is None:
                raise InviteClaimed(english("this invitation has been used already"))
            return self._claim(uow, game, state, invitation, name, signed_in=signed_in)

    def invite_status(self, game_id: str, code: str | None = None) -> str:
        """What a claim of `game_id`'s invitation would meet, without claiming:
        ``open``, ``invite_invalid`` (a wrong `code`; not checked without one),
        ``invite_claimed``, ``invite_expired`` (its time is up, or its game was
        abandoned or aborted) or ``not_online``. The join page says it before a name is given."""
        with self.store.unit_of_work(write=False) as uow:
            game, state = uow.state(game_id)
            invitation = uow.invitations.get(game_id)
        if invitation is None:
            return NotOnline.code
        if code is not None and not (code and security.token_matches(
                code, invitation.code_salt, invitation.code_hash)):
            return InviteInvalid.code
        if invitation.claimed_at is not None or (state.open_seat is None
                                                 and not state.no_result):
            return InviteClaimed.code
        now = self.clock()
        if invitation.expires_at <= now or state.no_result or abandon_reason(
                state, last_event_at=game.summary.updated_at, now=now,
                abandon_after=self.abandon_after) is not None:
            return InviteExpired.code
        return "open"

    def _claim(self, uow: UnitOfWork, game: StoredGame, state: GameState,
               invitation: Invitation, name: str, *, signed_in: SignedIn | None,
               player: int | None = None) -> ClaimedSeat:
        """Give the open seat to `name`, in `uow`, once the caller is known to hold
        the invitation (its code, or a rematch's other player's token): refused when
        it expired, its game is due to be abandoned, or the name is refused. The
        seat takes `player`'s record, else the one of `name` (`seating`); a rated
        game's only when it is the signed-in caller's (`seating.check_rated_claim`)."""
        game_id = game.summary.game_id
        now = self.clock()
        if invitation.expires_at <= now:
            raise InviteExpired(english("this invitation has expired"),
                                expired_at=iso_utc(invitation.expires_at))
        idle = abandon_reason(state, last_event_at=game.summary.updated_at,
                              now=now, abandon_after=self.abandon_after)
        if idle is not None:  # due, not yet written: as if the sweep had run
            raise abandoned_violation(idle)
        seat = state.open_seat
        assert seat is not None
        if player is None:
            decide(state, ClaimSeat(seat, name))  # a bad claim is refused before a record
            player = seat_player(uow, name, "name", signed_in, now)
        if state.game.rated:
            check_rated_claim(state, seat, player, signed_in)
        events = decide(state, ClaimSeat(seat, "", player))
        after = apply_all(state, events)
        token, salt, token_hash = security.new_token_hash()
        if not uow.invitations.claim(game_id, token_hash=token_hash, token_salt=salt,
                                     claimed_at=now):
            raise InviteClaimed(english("this invitation has been used already"))
        stored = uow.append(game_id, state.version, events, after)
        shown, stored = shown_now(uow, game_id, after.copy(), stored)
        return ClaimedSeat(game_id, seat, token, stored, shown)
