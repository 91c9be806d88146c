# --event naming a type the input does not have: empty output and a warning
cd "$CORPUS/jfr" && flame-collapse --event jdk.Nothing print-ThreadPark.txt
