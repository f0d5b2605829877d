from .program import console

console()
