# Type stubs for the part of confusable-homoglyphs the site uses (the package ships none).
