/*
Abstract:
The live timeline's web page: the current picture inline, and a small script that fetches it again and swaps it in.
*/

/// A self-contained page, nothing fetched from elsewhere: the picture as it is when the page loads,
/// then redrawn every ``refreshMilliseconds`` from ``LiveTimelineRoutes/picturePath`` of the same server.
///
/// The script counts the pictures it fetched in the body's `data-refreshes`, so a test reading the
/// rendered page can tell the script ran; when the server stops, the last picture stays and a line says so.
enum LiveTimelinePage {
    /// How often the page asks for the picture.
    static let refreshMilliseconds = 500

    /// The page around a picture.
    /// - Parameters:
    ///   - picture: The current picture, a standalone SVG.
    ///   - file: The trace file, named in the status line.
    static func render(picture: String, file: String) -> String {
        // Inline SVG needs no XML declaration.
        let svg = picture.drop { $0 != "\n" }.dropFirst()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Live timeline</title>
            <style>
            body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:16px 24px;color:#1F2933}
            #status{font-size:13px;color:#52606D;margin:0 0 8px}
            #timeline svg{max-width:100%;height:auto}
            </style>
            </head>
            <body data-refreshes="0">
            <p id="status">Live: redrawn from \(SVGDocument.escape(file)) as it grows.</p>
            <div id="timeline">\(svg)</div>
            <script>
            (function () {
              var holder = document.getElementById("timeline");
              var status = document.getElementById("status");
              var shown = "", refreshes = 0;
              function refresh() {
                fetch("\(LiveTimelineRoutes.picturePath)", {cache: "no-store"}).then(function (response) {
                  if (!response.ok) { throw new Error("status " + response.status); }
                  return response.text();
                }).then(function (text) {
                  if (text !== shown) {
                    shown = text;
                    holder.innerHTML = text.replace(/^<\\?xml[^>]*>\\s*/, "");
                  }
                  refreshes += 1;
                  document.body.setAttribute("data-refreshes", String(refreshes));
                  status.textContent = "Live: redrawn at " + new Date().toLocaleTimeString() + ".";
                }, function () {
                  status.textContent = "The live timeline's server stopped; this is the last picture it drew.";
                }).then(function () { setTimeout(refresh, \(refreshMilliseconds)); });
              }
              setTimeout(refresh, \(refreshMilliseconds));
            })();
            </script>
            </body>
            </html>

            """
    }
}
