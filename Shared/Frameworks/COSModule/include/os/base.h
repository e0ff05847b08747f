// os/base.h: declares nothing. Apple's header declares the C API of the os library; on this system the Swift
// module `os` declares the Swift API, and this header exists so `import os` has a module to load.
