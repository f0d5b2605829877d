from .cli.program import console

console()
