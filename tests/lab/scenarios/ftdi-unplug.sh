# An FTDI adapter opened by serial number (libftdi) is unplugged in
# mid-conversation (QMP device_del) and plugged back (device_add): muxd
# takes the port down, reopens the adapter by its serial number with
# backoff, and delivers everything typed meanwhile on the surviving side
# (unplug_scenario in tests/lab/lib.sh).
. tests/lab/lib.sh

unplug_scenario ftdi
echo ok
