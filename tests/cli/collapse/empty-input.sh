# empty input: empty output, exit 0
printf '' | flame-collapse
