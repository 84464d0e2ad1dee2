# fop: renders a generated XSL-FO book (60 chapters of justified text, tables and lists,
# about 460 A4 pages) to PDF with Apache FOP 2.8 (Debian package fop).
setup() {
  generate Gen.java book.fo 60
}
java_args() {  # $1: the run's output dir
  CMD=(-Djava.awt.headless=true
       -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog
       -Dorg.apache.commons.logging.simplelog.defaultlog=warn
       -cp "$(jars fop commons-io serializer xalan2 xml-apis batik-all commons-logging \
               xercesImpl xmlgraphics-commons xml-apis-ext fontbox2)"
       org.apache.fop.cli.Main -q -fo "$W/book.fo" -pdf "$1/book.pdf")
}
normalise() {  # the PDF without its creation dates and document ID, as a checksum
  cat "$1/stdout"
  echo "pdf $(stat -c %s "$1/book.pdf") bytes, normalised sha256 $(LC_ALL=C sed -E \
    -e 's/D:[0-9]{14}Z/D:X/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/DATE/g' \
    -e 's#/ID \[<[0-9A-F]+> <[0-9A-F]+>\]#/ID []#' "$1/book.pdf" | sha256sum | cut -c1-64)"
}
