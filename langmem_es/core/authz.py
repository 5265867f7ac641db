"""Who may do what inside a tenant: one authorisation check, fail closed.

The scope choke point (:mod:`langmem_es.core.scope`) decides what a caller can *see*.
This module decides what a caller may *do* with what it sees: every operation of the
memory core builds one :class:`Request` and passes it to :func:`authorize`, which asks
the rules and raises :class:`~langmem_es.errors.PermissionDeniedError` unless they
answer ``True``. Anything else — ``False``, ``None``, a reason string, an exception in
custom rules — denies.

Roles come from the application (``Identity.roles``, read from
``config["configurable"]`` or LangGraph's authenticated user), never from a model.

The default policy (:class:`Policy`):

===========================================  ============================  ==============
operation                                    member                        owner
===========================================  ============================  ==============
read private / conversation                  own only                      own only
read shared                                  yes (pending: own proposals)  yes
write private / conversation                 yes                           yes
write shared (``shared_writes="direct"``)    agents in ``shared_writers``  yes
propose shared (``shared_writes="review"``)  yes: pending until approved   yes (direct)
forget / supersede own private               yes                           yes (own only)
forget / supersede a shared memory           its author                    yes
contradict a shared memory (not author)      only as an open conflict      yes
resolve a conflict                           no                            yes
read the audit log                           no                            yes
``purge_user``                               no                            yes
export own memories / ``offboarding``        yes                           yes
export another user                          no                            yes
import as own (shared: as a shared write)    yes                           yes
import another's private as own              only with ``adopt=True``      same
list / approve / reject pending writes       own pending only / no         yes
record a playbook's outcome                  any playbook it can read      yes
===========================================  ============================  ==============

Replace it with any callable ``(identity, request) -> bool | str`` (a reason string
denies with that reason), e.g. ``MemoryCore(backend, rules=Policy(shared_writers={"kb"}))``
or a function of your own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..errors import PermissionDeniedError
from ..model import Identity, Memory, Scope

Action = Literal[
    "read",
    "write",
    "propose",
    "forget",
    "supersede",
    "resolve",
    "audit_log",
    "purge_user",
    "export",
    "import",
    "review",
    "outcome",
]
ACTIONS: tuple[str, ...] = get_args(Action)


@dataclass(frozen=True)
class Request:
    """One operation to authorise.

    ``scope`` is the scope acted in; ``target`` the memory acted on (forget, supersede,
    review); ``user_id`` the user acted on (purge, export of someone else);
    ``conflict`` marks a supersession recorded as an open conflict for owners to resolve;
    ``adopt`` an import that explicitly turns another principal's private memories into
    the caller's own.
    """

    action: Action
    scope: Scope | None = None
    target: Memory | None = None
    user_id: str | None = None
    conflict: bool = False
    adopt: bool = False


Rules = Callable[[Identity, Request], Any]
"""``(identity, request) -> True`` allows; anything else (or raising) denies."""


def provenance(identity: Identity) -> dict[str, Any]:
    """Who wrote a memory, stamped by the core on every new one (``metadata["provenance"]``).

    It comes from the caller's identity, never from arguments: whatever ``metadata`` a
    caller passes, the core overwrites this key.
    """
    out: dict[str, Any] = {k: v for k, v in (("user_id", identity.user_id), ("agent_id", identity.agent_id)) if v}
    if identity.is_owner:
        out["roles"] = sorted(identity.roles)
    return out


def actor_of(memory: Memory) -> Identity:
    """The identity that wrote ``memory``, from its provenance (member, unless it was stamped as an owner)."""
    stamp = memory.metadata.get("provenance") if isinstance(memory.metadata, Mapping) else None
    stamp = stamp if isinstance(stamp, Mapping) else {}
    user, agent = stamp.get("user_id"), stamp.get("agent_id")
    if not (user or agent) and memory.written_by:
        agent = memory.written_by
    roles = [r for r in stamp.get("roles") or () if r in ("member", "owner")] or ["member"]
    conversation = memory.owner.split(":", 1)[1] if memory.owner.startswith("conversation:") else None
    return Identity(
        tenant=memory.tenant, user_id=user, agent_id=agent, conversation_id=conversation, roles=frozenset(roles)
    )


def author_of(memory: Memory) -> dict[str, str]:
    """The principal that wrote ``memory``: its provenance stamp, else its ``written_by``."""
    stamp = memory.metadata.get("provenance") if isinstance(memory.metadata, Mapping) else None
    if isinstance(stamp, Mapping) and (stamp.get("user_id") or stamp.get("agent_id")):
        return {k: str(stamp[k]) for k in ("user_id", "agent_id") if stamp.get(k)}
    return {"written_by": memory.written_by} if memory.written_by else {}


def is_author(identity: Identity, memory: Memory) -> bool:
    """Did this caller write ``memory``? A user's memory belongs to the user, whichever agent
    carried it; an agent acting without a user is the author of what it wrote alone."""
    author = author_of(memory)
    if "user_id" in author:
        return identity.user_id == author["user_id"]
    if "agent_id" in author:
        return identity.user_id is None and identity.agent_id == author["agent_id"]
    legacy = author.get("written_by")
    return bool(legacy) and (identity.user_id == legacy or (identity.user_id is None and identity.agent_id == legacy))


def owns(identity: Identity, memory: Memory) -> bool:
    """Is ``memory`` in the caller's own (private or conversation) namespace — the one its own
    writes of that scope go to? A user working through an agent reads the agent's private
    memories but does not own them: only the agent acting alone changes or forgets them."""
    try:
        own = identity.owner_for(memory.scope)
    except ValueError:
        return False
    return memory.tenant == identity.tenant and memory.owner == own


def someone_elses(identity: Identity, memory: Memory) -> bool:
    """Did another principal than the caller write ``memory`` (by its provenance)?"""
    return bool(author_of(memory)) and not is_author(identity, memory)


@dataclass(frozen=True)
class Policy:
    """The default rules (table in the module docstring).

    ``shared_writers``: agent ids whose members may write shared memories directly
    (``"*"`` for every agent); owners always may. ``members_forget_shared``: let any
    member forget shared memories (off: only authors and owners).
    """

    shared_writers: Collection[str] = field(default_factory=frozenset)
    members_forget_shared: bool = False

    def __call__(self, identity: Identity, request: Request) -> bool | str:
        rule = getattr(self, f"_{request.action}", None)
        return rule(identity, request) if rule else f"unknown action {request.action!r}"

    # -- per action: True, or the reason it is refused -------------------------------

    def may_write_shared(self, identity: Identity) -> bool:
        agents = set(self.shared_writers)
        return identity.is_owner or bool(identity.agent_id and ("*" in agents or identity.agent_id in agents))

    def _read(self, identity: Identity, r: Request) -> bool | str:
        if r.target is not None and r.target.status == "pending":
            return (
                identity.is_owner
                or is_author(identity, r.target)
                or "a pending shared write is seen by its author and owners"
            )
        return True

    def _outcome(self, identity: Identity, r: Request) -> bool | str:
        """Counting a success or failure is feedback on a playbook one may read, not an edit of it."""
        return self._read(identity, r)

    def _write(self, identity: Identity, r: Request) -> bool | str:
        if r.scope in ("private", "conversation"):
            return True
        if r.scope == "shared":
            return self.may_write_shared(identity) or (
                "shared writes are off for this agent: the developer enables them with "
                "Policy(shared_writers={agent_id}); an owner may always write shared"
            )
        return f"unknown scope {r.scope!r}"

    def _propose(self, identity: Identity, r: Request) -> bool | str:
        """Review mode: any member with a user or agent id may propose a shared write; an owner approves it."""
        return bool(identity.user_id or identity.agent_id) or "a proposal needs a user or agent id"

    def _forget(self, identity: Identity, r: Request) -> bool | str:
        m = r.target
        if m is None:
            return "forget needs the memory it acts on"
        if m.scope != "shared":
            return owns(identity, m) or "only the owner of a private or conversation memory forgets it"
        return (
            identity.is_owner
            or is_author(identity, m)
            or self.members_forget_shared
            or "a shared memory is forgotten by its author or an owner"
        )

    def _supersede(self, identity: Identity, r: Request) -> bool | str:
        m = r.target
        if m is None:
            return "supersede needs the memory it acts on"
        if m.scope != "shared":
            return owns(identity, m) or "only the owner of a private or conversation memory replaces it"
        if identity.is_owner or is_author(identity, m):
            return True
        return (r.conflict and self.may_write_shared(identity)) or (
            "a shared memory is replaced by its author or an owner; another writer's value is recorded as a conflict"
        )

    def _resolve(self, identity: Identity, r: Request) -> bool | str:
        return identity.is_owner or "resolving a conflict takes an owner"

    def _audit_log(self, identity: Identity, r: Request) -> bool | str:
        return identity.is_owner or "the audit log is read by owners"

    def _purge_user(self, identity: Identity, r: Request) -> bool | str:
        return identity.is_owner or "purge_user takes an owner"

    def _review(self, identity: Identity, r: Request) -> bool | str:
        return identity.is_owner or "approving or rejecting shared writes takes an owner"

    def _export(self, identity: Identity, r: Request) -> bool | str:
        if r.user_id is None or r.user_id == identity.user_id:
            return True
        return identity.is_owner or "exporting another user's memories takes an owner"

    def _import(self, identity: Identity, r: Request) -> bool | str:
        if r.scope == "shared" and not self.may_write_shared(identity):
            return self._write(identity, r)
        if r.user_id is not None and r.user_id != identity.user_id:
            # someone else's records: private ones become the caller's only when asked for
            return r.adopt or "importing another user's private memories as your own needs adopt=True"
        return True


DEFAULT_POLICY = Policy()


def decide(rules: Rules, identity: Identity, request: Request) -> tuple[bool, str]:
    """``(allowed, reason)``; fails closed on anything but a literal ``True``."""
    try:
        verdict = rules(identity, request)
    except Exception as exc:  # noqa: BLE001 - broken custom rules deny, they never allow
        return False, f"the authorisation rules failed ({type(exc).__name__}: {exc})"
    if verdict is True:
        return True, ""
    return False, verdict if isinstance(verdict, str) and verdict else "not allowed by the authorisation rules"


def authorize(rules: Rules, identity: Identity, request: Request) -> None:
    """Raise :class:`PermissionDeniedError` unless ``rules`` allow ``request`` for ``identity``."""
    ok, reason = decide(rules, identity, request)
    if not ok:
        who = identity.user_id or identity.agent_id or "anonymous"
        what = request.action + (f" ({request.scope})" if request.scope else "")
        target = f" memory {request.target.id}" if request.target is not None else ""
        raise PermissionDeniedError(f"{who} ({', '.join(sorted(identity.roles))}) may not {what}{target}: {reason}")


def allowed(rules: Rules, identity: Identity, request: Request) -> bool:
    return decide(rules, identity, request)[0]


__all__ = [
    "ACTIONS",
    "DEFAULT_POLICY",
    "Action",
    "Policy",
    "Request",
    "Rules",
    "actor_of",
    "allowed",
    "author_of",
    "authorize",
    "decide",
    "is_author",
    "owns",
    "provenance",
    "someone_elses",
]
