# a hangup ignored when the tool starts (nohup) stays ignored: flame-merge, whose output
# is open while it reads, is sent SIGHUP mid-input and still writes the output whole
mkfifo in.fifo
( trap '' HUP; exec flame-merge -o out.folded in.fifo ) &
pid=$!
exec 3>in.fifo
printf 'a;b 2\na;b 3\n' >&3
sleep 0.5
kill -HUP $pid
sleep 0.2
echo "c;d 7" >&3
exec 3>&-
wait $pid
echo "exit $?"
cat out.folded
ls
