"""How a view takes each kind of update: one method per kind, and one function that picks it.

A view implements :class:`UpdateView`. :func:`tell` hands it an update by the update's kind.
The type checker sees every kind in the match below. So a new kind of update fails the type
check until ``tell`` and every view take it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, assert_never

from kotp2p.net.session.updates import (
    CaughtUp,
    ChatLine,
    DiceRolled,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    MoveApplied,
    Narrated,
    Notice,
    Resumed,
    Update,
    ViolationSeen,
    Waiting,
    YourTurn,
)


class UpdateView(Protocol):
    """What a view does with each kind of update."""

    def on_move_applied(self, u: MoveApplied) -> None:
        """A move or an ejection was applied."""

    def on_narrated(self, u: Narrated) -> None:
        """A line of what happened: a turn's heading or an event."""

    def on_dice_rolled(self, u: DiceRolled) -> None:
        """Dice came up."""

    def on_chat_line(self, u: ChatLine) -> None:
        """A player said something."""

    def on_violation_seen(self, u: ViolationSeen) -> None:
        """A seat was caught breaking the rules."""

    def on_frame_refused(self, u: FrameRefused) -> None:
        """A message from a peer was turned away."""

    def on_waiting(self, u: Waiting) -> None:
        """The game waits for these seats."""

    def on_eject_asked(self, u: EjectAsked) -> None:
        """The view's player may vote to eject the seats that hold the game up."""

    def on_notice(self, u: Notice) -> None:
        """A fact about this process the player should know."""

    def on_link_changed(self, u: LinkChanged) -> None:
        """A link to a peer came up or went down."""

    def on_your_turn(self, u: YourTurn) -> None:
        """The view's seat must decide."""

    def on_game_over(self, u: GameOver) -> None:
        """The game ended."""

    def on_caught_up(self, u: CaughtUp) -> None:
        """A resumed seat goes on: what follows is the game with this seat in it again."""
        ...

    def on_resumed(self, u: Resumed) -> None:
        """The game was resumed: here is what happened before."""


def tell(view: UpdateView, updates: Iterable[Update]) -> None:
    """Hand each update to the method of ``view`` for its kind, in order."""
    for u in updates:
        match u:
            case MoveApplied():
                view.on_move_applied(u)
            case Narrated():
                view.on_narrated(u)
            case DiceRolled():
                view.on_dice_rolled(u)
            case ChatLine():
                view.on_chat_line(u)
            case ViolationSeen():
                view.on_violation_seen(u)
            case FrameRefused():
                view.on_frame_refused(u)
            case Waiting():
                view.on_waiting(u)
            case EjectAsked():
                view.on_eject_asked(u)
            case Notice():
                view.on_notice(u)
            case LinkChanged():
                view.on_link_changed(u)
            case YourTurn():
                view.on_your_turn(u)
            case GameOver():
                view.on_game_over(u)
            case CaughtUp():
                view.on_caught_up(u)
            case Resumed():
                view.on_resumed(u)
            case _:
                assert_never(u)
