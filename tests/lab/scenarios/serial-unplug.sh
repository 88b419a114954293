# An adapter on /dev/ttyUSB* (ftdi_sio, libserialport) is unplugged in
# mid-conversation (QMP device_del) and plugged back (device_add): muxd
# takes the port down, reopens the device path when the tty is back with
# backoff, and delivers everything typed meanwhile on the surviving side
# (unplug_scenario in tests/lab/lib.sh).
. tests/lab/lib.sh

unplug_scenario serial
echo ok
