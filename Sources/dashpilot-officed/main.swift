import Office

#if canImport(Glibc)
  import Glibc
#endif

exit(OfficeMain.run(Array(CommandLine.arguments.dropFirst())))
