#if FUZZING
  import Foundation

  /// libFuzzer's driver, exported by the runtime `-sanitize=fuzzer` links:
  /// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`.
  /// Its arguments are a C int and pointers, which the Swift calling convention passes as C
  /// does on the 64-bit Linux targets this is built for.
  @_silgen_name("LLVMFuzzerRunDriver")
  private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  enum LibFuzzerDriver {
    /// Runs libFuzzer with this process's command line (`-max_total_time=60 CORPUS...`).
    static func run() -> Int32 {
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      return llvmFuzzerRunDriver(&argc, &argv) { data, size in fuzzRequestParser(data, size) }
    }
  }
#endif
