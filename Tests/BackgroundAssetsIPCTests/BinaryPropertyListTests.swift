/*
Abstract:
Binary property lists holding a set, which crashed Foundation on Linux, are refused in words before it reads them.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Binary property lists with a set")
struct BinaryPropertyListTests {
    /// The input `Tests/Fuzz`'s `resume-data` target found: the seed resume data with its request
    /// headers turned into a set of one string.
    static let fuzzedResumeData = Data(base64Encoded: """
        YnBsaXN0MDDXAQIDBAUGBwgJCgsMDRBfEBdOU1VSTFNlc3Npb25Eb3dubG9hZFVSTF8QH05TVVJMU2Vzc2lvblJlc3VtZUJ5dGVzUmVjZWl2ZWRf\
        EBtOU1VSTFNlc3Npb25SZXN1bWVFbnRpdHlUYWdfECJOU1VSTFNlc3Npb24BAHN1bWVJbmZvVGVtcEZpbGVOYW1lXxAdTlNVUkxTZXNzaW9uUmVz\
        dW1lSW5mb1ZlcnNpb25fECBOU1VSTFNlc3Npb25SZXN1bWVSZXF1ZXN0SGVhZGVyc18QI05TVVJMU2Vzc2lvblJlc3VtZVNlc3Npb25JZGVudGlm\
        aWVyXxAjaHR0cDovLzEyNy4wLjAuMTo4MDgwL2dhbWUtZGF0YS5iaW4REABVImFiYyJfEBdDRk5ldHdvcmtEb3dubG9hZF8xLnRtcBABwQ4PQWNw\
        VmVjdFMqLypcZ2FtZS5zZXNzaW9uAAgAFwAxAFMAcQCWALYA2QD/ASUBKAEuAUgBSgFNAVQBWAAAAAAAAAIBAAAAAAAAABEAAAAAAAAAAAAAAAAA\
        AAFl
        """)!

    @Test("Resume data that is a binary property list holding a set is refused, not a crash")
    func resumeDataWithSet() throws {
        for data in [Self.fuzzedResumeData, HostilePropertyLists.dictionaryWithSet] {
            let error = #expect(throws: BackgroundResumeDataError.self) { try BackgroundResumeData(decoding: data) }
            #expect(error?.problem.contains("holds a set") == true, "\(String(describing: error))")
        }
    }

    @Test("Resume data written by the system, in binary or XML, still decodes")
    func resumeDataFromTheSystem() throws {
        let resume = BackgroundResumeData(
            sessionIdentifier: "game.session", request: BackgroundTaskRequest(url: URL(string: "http://127.0.0.1/a")!, headers: [:]),
            bytesReceived: 4096, entityTag: "\"v1\"", partialFileName: "CFNetworkDownload_1.tmp")
        #expect(BinaryPropertyList.problem(in: resume.encoded()) == nil)
        #expect(try BackgroundResumeData(decoding: resume.encoded()) == resume)
        let xml = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: resume.encoded(), format: nil), format: .xml, options: 0)
        #expect(try BackgroundResumeData(decoding: xml) == resume)
    }

    @Test("A binary property list whose object table points outside the file is refused in words")
    func tableOutsideTheFile() {
        var data = HostilePropertyLists.dictionaryWithSet
        data[data.count - 1] = 0xFF  // the table starts past the end
        #expect(BinaryPropertyList.problem(in: data)?.contains("outside the file") == true)
        #expect(BinaryPropertyList.problem(in: Data("bplist00".utf8)) != nil)
        #expect(BinaryPropertyList.problem(in: Data("<plist><dict/></plist>".utf8)) == nil)
    }
}
