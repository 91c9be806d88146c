# stackcollapse-perf.pl strips a Java class's leading 'L' whenever the
# process name starts with "java", which java-PID and java-PID/TID still do: the Java
# tidying must not switch off under --pid / --tid. (perf-map-agent names, perf script
# -F comm,pid,tid,cpu,time,period,event,ip,sym,dso.)
f=$FIXTURES/perf/java-netty-pidtid.perf.txt
flame-collapse "$f"
flame-collapse --pid "$f"
flame-collapse --tid --jit "$f"
