mkdir adir
flame-collapse adir
