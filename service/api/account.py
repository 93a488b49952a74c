"""``/api/account``: claiming a name with a passkey, signing in and out, a player's
passkeys and recovery codes (`service.services.accounts`), with their schemas.

Each passkey step is two calls: ``…/options`` answers a ``ceremony`` id and the
``public_key`` options for ``navigator.credentials.create()`` or ``.get()`` (as
WebAuthn's JSON: ``PublicKeyCredential.parseCreationOptionsFromJSON``), and the
next call sends the ceremony back with the browser's ``credential``
(``credential.toJSON()``). A sign-in sets the session cookie (`set_session`), a new
token each time; the cookie is all a browser needs afterwards. The relying party
comes from the request (`protocol.relying_party`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Response, jsonify, make_response, request, url_for
from marshmallow import Schema, fields, validate

from ..errors import NotSignedIn
from ..protocol.event_json import timestamp
from ..protocol.headers import no_store
from ..protocol.relying_party import cookie_is_secure, relying_party
from ..protocol.signed_in import SESSION_COOKIE, SignedIn, current_player
from ..services.accounts import LABEL_MAX, Account, Passkey, Session, Started
from .blueprint import blp, current_services, error_responses

_CEREMONY = fields.String(required=True, validate=validate.Length(1, 64), metadata={
    "description": "the ceremony id its options gave"})
_CREDENTIAL = fields.Dict(required=True, metadata={
    "description": "the browser's PublicKeyCredential as JSON (`credential.toJSON()`)"})


# requests ---------------------------------------------------------------------------
class NameSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={
        "description": "the name to claim"})


class EmptySchema(Schema):
    pass


class RegistrationSchema(Schema):
    ceremony = _CEREMONY
    credential = _CREDENTIAL
    label = fields.String(load_default="", validate=validate.Length(0, LABEL_MAX), metadata={
        "description": "what the player calls this passkey (default: its date)"})


class AssertionSchema(Schema):
    ceremony = _CEREMONY
    credential = _CREDENTIAL


class RecoverySchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200))
    code = fields.String(required=True, validate=validate.Length(1, 100), metadata={
        "description": "one of the recovery codes shown when the name was claimed"})


# answers ----------------------------------------------------------------------------
class OptionsSchema(Schema):
    ceremony = fields.String(required=True, metadata={
        "description": "send it back with the credential, within 5 minutes, once"})
    public_key = fields.Dict(required=True, metadata={
        "description": "the options for navigator.credentials (WebAuthn's JSON)"})


class PasskeySchema(Schema):
    id = fields.String(required=True, metadata={"description": "the credential id"})
    label = fields.String(required=True)
    created_at = fields.String(required=True)
    used_at = fields.String(required=True, allow_none=True, metadata={
        "description": "its last sign-in; null: none yet"})


class PasskeyListSchema(Schema):
    passkeys = fields.List(fields.Nested(PasskeySchema), required=True)


class PlayerRefSchema(Schema):
    name = fields.String(required=True)
    player_url = fields.String(required=True, metadata={"description": "the player's page"})


class ClaimedNameSchema(PlayerRefSchema):
    recovery_codes = fields.List(fields.String(), required=True, metadata={
        "description": "10 one-time codes, shown only here: each adds a passkey once "
                       "when every passkey is lost"})


class AddedPasskeySchema(Schema):
    passkey = fields.Nested(PasskeySchema, required=True)
    name = fields.String(required=True, metadata={"description": "the player's"})


class AccountSchema(PlayerRefSchema):
    passkeys = fields.List(fields.Nested(PasskeySchema), required=True)
    recovery_codes_left = fields.Integer(strict=True, required=True)


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else timestamp(moment)


def _passkey_view(passkey: Passkey) -> dict[str, Any]:
    return {"id": passkey.id, "label": passkey.label,
            "created_at": timestamp(passkey.created_at), "used_at": _when(passkey.used_at)}


def _player_ref(name: str) -> dict[str, str]:
    return {"name": name, "player_url": url_for("web.player", name=name)}


def _options(started: Started) -> Response:
    return jsonify({"ceremony": started.ceremony, "public_key": started.options})


def set_session(response: Response, session: Session) -> Response:
    """The session cookie: HttpOnly (no script reads it), SameSite=Lax, Secure when
    the public URL is https, the whole site, until the session expires."""
    response.set_cookie(SESSION_COOKIE, session.token, expires=session.expires_at,
                        path="/", httponly=True, samesite="Lax", secure=cookie_is_secure())
    return response


def clear_session(response: Response) -> Response:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="Lax",
                           secure=cookie_is_secure())
    return response


def signed_in() -> SignedIn:
    player = current_player()
    if player is None:
        raise NotSignedIn("sign in first")
    return player


# claiming a name --------------------------------------------------------------------
@blp.route("/account/claim/options", methods=["POST"])
@blp.arguments(NameSchema())
@blp.response(200, OptionsSchema)
@error_responses(400, 409, 422, 429)
@no_store
def account_claim_options(body: dict[str, Any]) -> Response:
    """Begin claiming a name: the options to create its passkey. 422 ``invalid_name``,
    409 ``name_claimed`` (someone holds it, or a name written like it) or
    ``name_reserved`` (a name of the original high score table), 400
    ``passkey_host`` (open the page at localhost)."""
    return _options(current_services().accounts.claim_options(body["name"],
                                                              relying_party()))


@blp.route("/account/claim", methods=["POST"])
@blp.arguments(RegistrationSchema())
@blp.response(201, ClaimedNameSchema)
@error_responses(400, 403, 409, 410, 429)
@no_store
def account_claim(body: dict[str, Any]) -> Response:
    """Finish the claim with the new passkey: the name is the player's, the browser
    signed in (the session cookie), and 10 recovery codes, shown only here."""
    claimed = current_services().accounts.claim(body["ceremony"], body["credential"],
                                                relying_party(), body["label"])
    response = jsonify({**_player_ref(claimed.player.name),
                        "recovery_codes": list(claimed.recovery_codes)})
    response.status_code = 201
    return set_session(response, claimed.session)


# signing in and out -----------------------------------------------------------------
@blp.route("/account/sign-in/options", methods=["POST"])
@blp.arguments(EmptySchema())
@blp.response(200, OptionsSchema)
@error_responses(400, 429)
@no_store
def account_sign_in_options(body: dict[str, Any]) -> Response:
    """Begin signing in: the options for any passkey of this site (no name asked)."""
    return _options(current_services().accounts.sign_in_options(relying_party()))


@blp.route("/account/sign-in", methods=["POST"])
@blp.arguments(AssertionSchema())
@blp.response(200, PlayerRefSchema)
@error_responses(400, 403, 409, 410, 429)
@no_store
def account_sign_in(body: dict[str, Any]) -> Response:
    """Finish signing in with the passkey's answer: a new session cookie. 403
    ``passkey_unknown``, ``passkey_refused`` (details.reason), ``counter_went_back``;
    409 ``ceremony_used``, 410 ``ceremony_expired``."""
    done = current_services().accounts.sign_in(body["ceremony"], body["credential"],
                                               relying_party())
    response = jsonify(_player_ref(done.player.name))
    assert done.session is not None
    return set_session(response, done.session)


@blp.route("/account/sign-out", methods=["POST"])
@blp.response(204)
@error_responses(403)
def account_sign_out() -> Response:
    """Sign this browser out: its session ends and the cookie is cleared (a browser
    signed in nowhere gets the same 204)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        current_services().accounts.sign_out(token)
    return clear_session(make_response("", 204))


@blp.route("/account/sign-out-everywhere", methods=["POST"])
@blp.response(204)
@error_responses(401, 403)
def account_sign_out_everywhere() -> Response:
    """End every session of the signed-in player, this one too."""
    current_services().accounts.sign_out_everywhere(signed_in().player_id)
    return clear_session(make_response("", 204))


# the account ------------------------------------------------------------------------
def _account_view(account: Account) -> dict[str, Any]:
    return {**_player_ref(account.name),
            "passkeys": [_passkey_view(p) for p in account.passkeys],
            "recovery_codes_left": account.recovery_codes_left}


@blp.route("/account", methods=["GET"])
@blp.response(200, AccountSchema)
@error_responses(401)
@no_store
def account() -> Response:
    """The signed-in player: their name, passkeys and how many recovery codes are
    left. 401 ``not_signed_in``."""
    return jsonify(_account_view(current_services().accounts.account(signed_in().player_id)))


@blp.route("/account/passkeys", methods=["GET"])
@blp.response(200, PasskeyListSchema)
@error_responses(401)
@no_store
def account_passkeys() -> Response:
    """The signed-in player's passkeys, oldest first."""
    found = current_services().accounts.account(signed_in().player_id)
    return jsonify({"passkeys": [_passkey_view(p) for p in found.passkeys]})


@blp.route("/account/passkeys/options", methods=["POST"])
@blp.arguments(EmptySchema())
@blp.response(200, OptionsSchema)
@error_responses(400, 401, 403, 429)
@no_store
def account_passkey_options(body: dict[str, Any]) -> Response:
    """Begin adding a passkey for the signed-in player."""
    return _options(current_services().accounts.add_passkey_options(
        signed_in().player_id, relying_party()))


@blp.route("/account/recovery", methods=["POST"])
@blp.arguments(RecoverySchema())
@blp.response(200, OptionsSchema)
@error_responses(400, 403, 429)
@no_store
def account_recovery(body: dict[str, Any]) -> Response:
    """Spend a recovery code of the name (once, whatever follows) and begin adding a
    passkey for its player; finish with ``POST /api/account/passkeys``, which signs
    this browser in. 403 ``recovery_code_invalid`` for a wrong code or name alike."""
    return _options(current_services().accounts.recover(body["name"], body["code"],
                                                        relying_party()))


@blp.route("/account/passkeys", methods=["POST"])
@blp.arguments(RegistrationSchema())
@blp.response(201, AddedPasskeySchema)
@error_responses(400, 403, 409, 410, 429)
@no_store
def account_add_passkey(body: dict[str, Any]) -> Response:
    """Finish adding a passkey (after ``/account/passkeys/options`` or
    ``/account/recovery``); a browser not yet signed in as the player is signed in."""
    passkey, done = current_services().accounts.add_passkey(
        body["ceremony"], body["credential"], relying_party(), current_player(),
        body["label"])
    response = jsonify({"passkey": _passkey_view(passkey), "name": done.player.name})
    response.status_code = 201
    return set_session(response, done.session) if done.session is not None else response


@blp.route("/account/passkeys/<credential_id>", methods=["DELETE"])
@blp.response(204)
@error_responses(401, 403, 409)
def account_remove_passkey(credential_id: str) -> Response:
    """Remove one of the signed-in player's passkeys; 409 ``last_passkey`` for the
    only one (add another first)."""
    current_services().accounts.remove_passkey(signed_in().player_id, credential_id)
    return make_response("", 204)


@blp.route("/account/forget", methods=["POST"])
@blp.response(204)
@error_responses(401, 403)
def account_forget() -> Response:
    """Forget the signed-in player: their name leaves every game and table, and
    their passkeys, codes and sessions go with their record."""
    player = signed_in()
    services = current_services()
    services.players.forget(player.name)  # their passkeys, codes and sessions too
    return clear_session(make_response("", 204))
