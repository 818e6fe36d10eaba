print("bench none 0 none")
