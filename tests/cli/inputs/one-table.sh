# Every tool that reads profiles takes the same input options, from one table (cli.c's
# cli_input_opts): the same rows, names and help in each tool's --help-table (which
# --help, the man pages and the completions are made from), each accepted by each tool.
rows() { # the rows under the heading of the input options, as NAME<TAB>ARG
  "$1" --help-table | awk -F'\t' '$1 == "heading" { on = $2 ~ /^Reading the inputs/; next }
    $1 == "opt" && $3 == "help" { on = 0 } on && $1 == "opt" { print $3 "\t" $4 "\t" $5 }'
}
rows flame-collapse > collapse.rows
for t in flame-render flame-diff flame-merge flame-top; do
  rows $t | cmp -s - collapse.rows && echo "$t: the same input options as flame-collapse"
done
cut -f1,2 collapse.rows | tr '\t' ' ' | sed 's/ $//'
# each one is taken by each tool (as --list-sample-types shows, it goes on to the readers)
printf 'a;b 1\n' > in.folded
for t in flame-collapse flame-render flame-diff flame-merge flame-top; do
  cut -f1,2 collapse.rows | while read -r name arg; do
    case $name in list-sample-types) continue ;; esac
    case $arg in
      FMT) v=folded ;; SIZE) v=1G ;; REGEX) v=. ;; START,END) v=0,9 ;; KEY=REGEX) v=k=v ;;
      '') v= ;; *) v=x ;;
    esac
    if [ $t = flame-diff ]; then ops="in.folded in.folded"; else ops=in.folded; fi
    if [ -n "$arg" ]; then $t --$name $v $ops >/dev/null 2>err.txt; else $t --$name $ops >/dev/null 2>err.txt; fi
    if grep -q 'invalid option' err.txt; then echo "$t refuses --$name"; fi
  done > refused.txt
  [ -s refused.txt ] && cat refused.txt || echo "$t takes them all"
done
