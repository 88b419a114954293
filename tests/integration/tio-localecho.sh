# A station whose terminals echo the keys themselves and show Enter as CR
# alone (localecho = "cr"): tio --local-echo as the judge's terminal,
# which shows the DEL of the Backspace key as nothing (localecho.inc).
# muxd writes the LF of each Enter, so that no line is written over the
# last.
PROG=tio
. tests/integration/localecho.inc
