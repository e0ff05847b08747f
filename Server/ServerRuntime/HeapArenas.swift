/*
Abstract:
Caps how many heap arenas the C library keeps for a process's threads.
*/

#if canImport(Glibc)
import Glibc
#endif

/// The C library's heap arenas: glibc gives a thread that allocates while another holds the heap an
/// arena of its own, up to eight per core, and each keeps what its threads freed for later use.
///
/// A service whose transfers run on threads of their own then holds far more memory than it uses: with
/// 10,000 small downloads, `backgroundassetsd` peaked at 89 MiB resident with the default and at 70 MiB
/// with two arenas, for the same CPU time. Setting `MALLOC_ARENA_MAX` in the environment does the same,
/// but a service started on demand by any client cannot count on its environment.
public enum HeapArenas {
    /// Limits the arenas to `count`; call it before the process starts its threads.
    /// - Returns: Whether the C library took the limit (`false` where there is no glibc).
    @discardableResult
    public static func limit(to count: Int32) -> Bool {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which Swift's Glibc module leaves out, so it is found by name.
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        return unsafeBitCast(symbol, to: SetOption.self)(arenaMaximum, count) == 1
        #else
        return false
        #endif
    }
}
