import os

# Qt must know before any QApplication exists that there is no screen here.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
