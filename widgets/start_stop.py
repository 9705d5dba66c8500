"""What the owner of a panel that runs something (a perft run, a test session, a race) asks of it
instead of reaching for its buttons: start and stop as the buttons do, whether each is offered,
the status line. A panel mixes it in and has `start_button`, `stop_button` and `status`.

`watch(state)` makes the panel show a tab's long work as the window's model holds it (app.model's
JobState, read by its attributes: running, status, error, subject): Start and Stop offered by
whether it runs, the status line (an error always in palette.ERROR), and the Subject's caption
(which position and engines the work belongs to) as the status line's tooltip."""
from __future__ import annotations

from . import palette


class StartStop:
    def request_start(self):
        """As the Start button (a panel may refuse with a message: nothing chosen to run)."""
        self.start_button.click()

    def request_stop(self):
        self.stop_button.click()

    def can_start(self) -> bool:
        """Start is offered: nothing is running."""
        return self.start_button.isEnabled()

    def can_stop(self) -> bool:
        return self.stop_button.isEnabled()

    def status_text(self) -> str:
        return self.status.text()

    # --- the state watched ---------------------------------------------------------------
    def watch(self, state):
        """Show `state` now and whenever it changes."""
        state.changed.connect(lambda: self.show_state(state))
        self.show_state(state)

    def show_state(self, state):
        if state.running != self.stop_button.isEnabled():
            self.set_running(state.running)
        if state.status:
            self.show_status(state.status, state.error)
        self.status.setToolTip(state.subject.caption() if state.subject is not None else "")

    def set_running(self, running: bool):
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)

    def show_status(self, text: str, error: bool = False):
        self.status.setStyleSheet(f"color:{palette.ERROR};" if error else "")
        self.status.setText(text)

    def show_error(self, text: str):
        """A message of the panel's own (nothing chosen to run, a bad FEN typed)."""
        self.show_status(text, error=True)
