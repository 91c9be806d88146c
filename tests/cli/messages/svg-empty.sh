# an empty file with --format svg said "Extra content at the end of
# the document"; it says the file is empty
: > empty.svg
flame-collapse --format svg empty.svg
echo "exit $?"
flame-collapse --format svg < /dev/null
echo "exit $?"
# auto-detection: an empty file is no profile of any format (nothing, exit 0)
flame-collapse empty.svg
echo "exit $?"
