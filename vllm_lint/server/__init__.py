"""The language server (``vllm-lint server``): findings, fixes, hover and completion in the editor,
over the same engine as the command line. ``core`` holds what is true of a document; ``protocol``
speaks LSP (pygls), imported only when the server starts."""
