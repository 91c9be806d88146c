flame-collapse /nonexistent/profile.txt
