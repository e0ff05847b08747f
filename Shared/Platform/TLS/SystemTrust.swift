/*
Abstract:
The system's CAs for a client context: looked up one issuer at a time where the system keeps a hashed folder of them.
*/

import COpenSSL
import Foundation

/// Trusts the CAs OpenSSL's default verify paths name, without reading them all up front.
///
/// `SSL_CTX_set_default_verify_paths` parses the whole default bundle (`cert.pem`, about 150
/// certificates) before it returns: 19 ms of CPU on every context, paid by the first https
/// request of each process and of each new trust folder. Debian's `ca-certificates` keeps the same
/// CAs in the default folder too, one file per CA under its subject's hash, which OpenSSL's
/// hashed-folder lookup opens only when a chain names that issuer. So where that folder has hashed
/// names, it is the whole of the system's trust; where it has none (a system that ships only a
/// bundle), or where `SSL_CERT_FILE` or `SSL_CERT_DIR` name other paths than the defaults, the
/// default verify paths are used as they are.
enum SystemTrust {
    /// Adds the system's CAs to `context`'s store.
    /// - Parameter folder: A folder of CAs under hashed names to look issuers up in, instead of the default paths.
    static func add(to context: OpaquePointer, hashedFolder folder: String? = hashedFolder) {
        if let folder {
            _ = SSL_CTX_load_verify_dir(context, folder)
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        // Missing default paths are no error to report: a context then trusts what it is given.
        ERR_clear_error()
    }

    /// OpenSSL's default CA folder, when it alone holds the system's trust; read once per process.
    static let hashedFolder: String? = {
        guard let defaultBundle = X509_get_default_cert_file().map({ String(cString: $0) }),
              let defaultFolder = X509_get_default_cert_dir().map({ String(cString: $0) }) else { return nil }
        // Some environments set SSL_CERT_FILE and SSL_CERT_DIR to the defaults themselves, which
        // changes nothing. Paths of their own are read as OpenSSL reads them: a bundle of one's own
        // may hold CAs the folder lacks.
        let bundle = environment(X509_get_default_cert_file_env()) ?? defaultBundle
        let folder = environment(X509_get_default_cert_dir_env()) ?? defaultFolder
        guard isSameFile(bundle, defaultBundle), isSameFile(folder, defaultFolder) else { return nil }
        return containsHashedNames(defaultFolder) ? defaultFolder : nil
    }()

    private static func environment(_ name: UnsafePointer<CChar>?) -> String? {
        name.flatMap { getenv($0) }.map { String(cString: $0) }
    }

    /// Whether two paths name the same file once links are followed (or the same missing path).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        func resolved(_ path: String) -> String {
            guard let real = realpath(path, nil) else { return path }
            defer { free(real) }
            return String(cString: real)
        }
        return resolved(first) == resolved(second)
    }

    /// Whether `folder` has a file named as OpenSSL's lookup expects: eight hex digits, a dot, a number.
    static func containsHashedNames(_ folder: String) -> Bool {
        // Listed by name, as the service lists its trust folder: once per process, a few hundred names.
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains(where: isHashedName)
    }

    /// Whether `name` is a hashed CA file's name, `5ad8a5d6.0` say.
    static func isHashedName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, !parts[1].isEmpty else { return false }
        let isHex = parts[0].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        return isHex && parts[1].allSatisfy { (0x30...0x39).contains($0) }
    }
}
