# A station whose terminals echo the keys themselves (localecho = true):
# picocom --echo as the judge's terminal, which shows Enter as CR LF and
# the DEL of the Backspace key as a move left (localecho.inc).
PROG=picocom
. tests/integration/localecho.inc
