"""What the owner of a panel that runs something (a perft run, a test session) asks of it
instead of reaching for its buttons: start and stop as the buttons do, whether each is offered,
the status line. A panel mixes it in and has `start_button`, `stop_button` and `status`."""
from __future__ import annotations


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
