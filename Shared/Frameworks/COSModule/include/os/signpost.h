// os/signpost.h: declares nothing. Apple's header declares the C API of os_signpost; on this system the Swift
// module `os` declares the Swift API, and this header exists so `import os.signpost` names a submodule.
