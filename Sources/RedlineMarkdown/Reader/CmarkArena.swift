internal import CCmarkGFM
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of one cmark-gfm parse: cmark allocates every node, literal and delimiter through it from
/// large blocks (each allocation zeroed as cmark's `calloc` promises), frees nothing one by one, and the blocks go back when the parse's tree has been
/// mirrored. cmark's own `calloc`/`free` per node were a sixth of reading a paragraph of a million runs
/// (PERFORMANCE.md, "Small runs"). Each thread has its own current arena (cmark's allocator callbacks carry
/// no context, and cmark-gfm's built-in arena is one global for the whole process).
final class CmarkArena {
    /// Bytes of a block; a larger request gets a block of its own.
    static let blockSize = 1 << 20
    /// Each allocation is preceded by its size (for `realloc`), keeping 16-byte alignment.
    private static let header = 16

    private var blocks: [UnsafeMutableRawPointer] = []
    private var current: UnsafeMutableRawPointer?
    private var used = 0
    private var capacity = 0

    deinit { for b in blocks { free(b) } }

    /// Runs `body` with an allocator for cmark that takes from a new arena, freed when `body` returns.
    /// Nothing cmark allocated with it may be used after that.
    static func scoped<T>(_ body: (UnsafeMutablePointer<cmark_mem>) throws -> T) rethrows -> T {
        let arena = CmarkArena()
        // Safety: the thread's current arena is unretained: `withExtendedLifetime` keeps `arena` alive while
        // `body` runs (the only time cmark allocates through it), and the `defer` puts the previous arena back
        // before any later parse on this thread, so `withCurrent` never finds a freed one; cmark's pointers
        // into it are not used after `body` (see above).
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(arena).toOpaque())
        defer { pthread_setspecific(key, previous) }
        var mem = cmark_mem(
            calloc: { count, size in CmarkArena.withCurrent { $0.allocate(count, size) } },
            realloc: { old, size in CmarkArena.withCurrent { $0.reallocate(old, size) } },
            free: { _ in })
        return try withExtendedLifetime(arena) { try withUnsafeMutablePointer(to: &mem) { try body($0) } }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static func withCurrent(_ body: (CmarkArena) -> UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        guard let p = pthread_getspecific(key) else { fatalError("cmark allocated outside CmarkArena.scoped") }
        return Unmanaged<CmarkArena>.fromOpaque(p)._withUnsafeGuaranteedRef(body)
    }

    private static func rounded(_ n: Int) -> Int { (n + 15) & ~15 }

    /// `count × size` zeroed bytes. Only the bytes handed out are zeroed: a block is taken from `malloc`, so a
    /// parse of a few bytes (a comment's body, of which a document may have many thousands) does not pay
    /// for zeroing a whole 1 MiB block (`calloc` did so once `malloc`'s threshold for fresh pages rose).
    func allocate(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer {
        let p = take(count, size)
        memset(p, 0, count * size)
        return p
    }

    /// `count × size` bytes, not zeroed.
    private func take(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, bytes < Int.max / 2 else { Self.outOfMemory() }
        let need = Self.header + Self.rounded(bytes)
        if need > capacity - used {
            if need > Self.blockSize / 4 {
                // A large piece (a long line's buffer): a block of its own; the current block stays.
                let b = newBlock(need)
                b.storeBytes(of: need - Self.header, as: Int.self)
                return b + Self.header
            }
            current = newBlock(Self.blockSize)
            used = 0
            capacity = Self.blockSize
        }
        let p = current! + used
        p.storeBytes(of: need - Self.header, as: Int.self)
        used += need
        return p + Self.header
    }

    /// cmark's `realloc`: the last piece of the current block grows in place, another is copied.
    func reallocate(_ old: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let old else { return take(1, size) }
        let oldSize = (old - Self.header).load(as: Int.self)
        if size <= oldSize { return old }
        let newSize = Self.rounded(size)
        if let c = current, old + oldSize == c + used, used - oldSize + newSize <= capacity {
            (old - Self.header).storeBytes(of: newSize, as: Int.self)
            used += newSize - oldSize
            return old
        }
        let p = take(1, size)
        p.copyMemory(from: old, byteCount: oldSize)
        return p
    }

    private func newBlock(_ size: Int) -> UnsafeMutableRawPointer {
        guard let b = malloc(size) else { Self.outOfMemory() }
        blocks.append(b)
        return b
    }

    /// What cmark's own allocator does when the system has no memory left.
    private static func outOfMemory() -> Never {
        let message = "[cmark] calloc returned null pointer, aborting\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        abort()
    }
}
