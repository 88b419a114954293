# Appearance profiles (2004 rule 6c): prompt, banner, colours, line width
# and line ends from a libconfig file; a bad profile, a bad address, a
# missing device and a bad command line each get a clear message.
. tests/integration/lib.sh

cat >"$T/entry.profile" <<'EOF'
# Looks like the matching entry.
prompt = "Judge> ";
banner = "Welcome to the 2004 Loebner Prize\nType @@nn and Enter twice.";
width = 40;
eol = "lf";
typing = "0";
colours = {
	prompt = "bold yellow";
	entity = "green on black";
	judge = "cyan";
};
EOF

cable line
cp_run judge "$COMPROG judge --no-record -p $T/entry.profile $T/line.dev"
cp_wait judge '^Welcome to the 2004 Loebner Prize$' 5 "no banner"
cp_wait judge '^Type @@nn and Enter twice\.$' 5 "the banner's second line is missing"
cp_wait judge '^Judge>$' 5 "the profile's prompt is not shown"
cp_type judge 'Is this the entry? It has a forty column screen'
cp_key judge Enter Enter
tty "$T/line" 'expect:Is this the entry? It has a forty column screen\n\n' >/dev/null ||
	fail "Enter did not send the profile's line end (LF)"
cp_wait judge '^Judge> Is this the entry\? It has a forty$' 5 "not wrapped at the profile's width"
cp_wait judge '^ column screen$' 5 "the wrapped part is not on the next row"
tmux capture-pane -e -p -t "judge-$$" | grep -q "$(printf '\033')\[33mJudge> " ||
	fail "the prompt is not in the profile's colour: $(tmux capture-pane -e -p -t "judge-$$" | cat -v)"
tty "$T/line" 'send:Yes.\r\n' >/dev/null
cp_wait judge '^Yes\.$' 5 "the answer is not shown"
tmux capture-pane -e -p -t "judge-$$" | grep -q "$(printf '\033')\[32m$(printf '\033')\[40mYes\." ||
	fail "the answer is not in the profile's colour: $(tmux capture-pane -e -p -t "judge-$$" | cat -v)"
cp_key judge C-] q

# The entry's typing model and line ends from the profile.
cat >"$T/bot" <<'EOF'
#!/bin/sh
while IFS= read -r line; do echo "You said: $line"; done
EOF
chmod +x "$T/bot"
cable e
bg "$COMPROG" entry --no-record -p "$T/entry.profile" -l "$T/entry.log" "$T/e.dev" -- "$T/bot"
tty "$T/e" 'type:hi\r\r' 'expect:You said: hi\n' 'quiet:300' >/dev/null ||
	fail "the entry did not answer with the profile's line end"

# Bad profiles name the file and the line.
printf 'prompt = ">";\ncolour = { judge = "green"; };\n' >"$T/bad1"
"$COMPROG" judge -p "$T/bad1" "$T/line.dev" 2>"$T/err" && fail "a bad profile was accepted"
grep -q "^comprog: $T/bad1:2: unknown setting 'colour'" "$T/err" || fail "unclear: $(cat "$T/err")"
printf 'colours = {\n  judge = "purple";\n};\n' >"$T/bad2"
"$COMPROG" judge -p "$T/bad2" "$T/line.dev" 2>"$T/err" && fail "a bad colour was accepted"
grep -q "^comprog: $T/bad2:2: colour 'judge'" "$T/err" || fail "unclear: $(cat "$T/err")"
printf 'width = 5;\n' >"$T/bad3"
"$COMPROG" judge -p "$T/bad3" "$T/line.dev" 2>"$T/err" && fail "a bad width was accepted"
grep -q "^comprog: $T/bad3:1: width must be" "$T/err" || fail "unclear: $(cat "$T/err")"
printf 'prompt = ">";\nwidth = ;\n' >"$T/bad4"
"$COMPROG" judge -p "$T/bad4" "$T/line.dev" 2>"$T/err" && fail "a syntax error was accepted"
grep -q "^comprog: $T/bad4:2: " "$T/err" || fail "unclear: $(cat "$T/err")"
"$COMPROG" judge -p "$T/none" "$T/line.dev" 2>"$T/err" && fail "a missing profile was accepted"
grep -q "^comprog: profile $T/none: cannot read it" "$T/err" || fail "unclear: $(cat "$T/err")"
# An include of a directory: libconfig alone would end comprog with
# "input in flex scanner failed".
mkdir "$T/profiles"
printf 'prompt = ">";\n@include "%s"\n' "$T/profiles" >"$T/bad5"
"$COMPROG" judge -p "$T/bad5" "$T/line.dev" 2>"$T/err"
[ $? = 1 ] || fail "an include of a directory did not exit 1: $(cat "$T/err")"
grep -q "^comprog: $T/bad5:2: @include \"$T/profiles\": a directory, not a file" "$T/err" ||
	fail "unclear: $(cat "$T/err")"
"$COMPROG" judge -p "$T/profiles" "$T/line.dev" 2>"$T/err" && fail "a directory was read as a profile"
grep -q "^comprog: profile $T/profiles: cannot read it: not a file" "$T/err" || fail "unclear: $(cat "$T/err")"

# Bad addresses and command lines.
"$COMPROG" judge nosuch:thing 2>"$T/err"
[ $? = 1 ] || fail "a bad address did not exit 1"
grep -q "^comprog: bad address 'nosuch:thing': unknown address scheme" "$T/err" ||
	fail "unclear: $(cat "$T/err")"
"$COMPROG" judge "$T/line.dev,baud=12345" 2>"$T/err" && fail "a bad baud rate was accepted"
grep -q "^comprog: bad address '$T/line.dev,baud=12345': " "$T/err" || fail "unclear: $(cat "$T/err")"
"$COMPROG" confederate "$T/line.dev" 2>"$T/err"
[ $? = 2 ] || fail "a confederate without a name did not exit 2"
grep -q "^comprog: confederate needs -n NAME" "$T/err" || fail "unclear: $(cat "$T/err")"
"$COMPROG" entry "$T/line.dev" 2>"$T/err"
[ $? = 2 ] || fail "an entry without a program did not exit 2"
grep -q "^usage: comprog judge" "$T/err" || fail "no usage: $(cat "$T/err")"
"$COMPROG" entry --typing fast "$T/line.dev" -- "$T/bot" 2>"$T/err"
[ $? = 2 ] || fail "a bad typing model did not exit 2"
grep -q "^comprog: --typing: 'fast' is not a typing model" "$T/err" || fail "unclear: $(cat "$T/err")"

# The screen's sides need a terminal, and say so before recording anything.
(cd "$T" && "$COMPROG" judge "$T/line.dev" </dev/null >/dev/null 2>"$T/err")
[ $? = 1 ] || fail "a judge without a terminal did not exit 1"
grep -q "^comprog: judge: standard input and output must be a terminal" "$T/err" ||
	fail "unclear: $(cat "$T/err")"
ls "$T"/*.cast "$T"/LP*.TXT >/dev/null 2>&1 && fail "files were recorded by a judge that could not start"

# A device that is not there: the screen says why, and comprog retries.
cp_run gone "$COMPROG judge --no-record $T/no-such-device"
cp_wait gone "^LINE DOWN, retrying \| .*no-such-device: No such" 5 \
	"a missing device is not explained on the status line"
echo ok
