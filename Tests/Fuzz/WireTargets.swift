/*
Abstract:
Fuzz targets for what arrives over the service's socket and from an app's resume data.
*/

import BackgroundAssetsIPC
import Foundation

extension FuzzTarget {
    static let wireTargets: [FuzzTarget] = [
        FuzzTarget(name: "frame-decoder",
                   summary: "FrameDecoder fed a stream in two pieces, each frame then decoded by MessageCodec") { data in
            let (first, rest) = split(data)
            // A small limit, so the fuzzer reaches the too-large path without allocating megabytes.
            var decoder = FrameDecoder(maximumFrameSize: 1 << 16)
            for piece in [first, rest] {
                decoder.append(piece)
                while let payload = try? decoder.nextFrame() {
                    _ = try? MessageCodec.decode(ClientMessage.self, from: payload)
                    _ = try? MessageCodec.decode(ServerMessage.self, from: payload)
                }
            }
            _ = try? decoder.finish()
        },
        FuzzTarget(name: "message-codec",
                   summary: "MessageCodec.decode of one payload as a ClientMessage and as a ServerMessage") { data in
            _ = try? MessageCodec.decode(ClientMessage.self, from: data)
            _ = try? MessageCodec.decode(ServerMessage.self, from: data)
        },
        FuzzTarget(name: "resume-data",
                   summary: "BackgroundResumeData(decoding:), the resume data an app hands back to the service") { data in
            _ = try? BackgroundResumeData(decoding: data)
        },
    ]
}
