#pragma once
// The sweep file as text, checked line by line before the INI parser sees it: the parser reports
// a bad line without its number and takes any byte for text, so encoding and syntax are checked
// here, with the file name and line number in every message.
#include <string>

namespace vibro {

// `text` ready for the INI parser: a UTF-8 byte order mark dropped, CR LF and lone CR line ends
// made LF, ';' comment lines made blank. Throws InputError naming `source_name` for a file that is
// not INI text (UTF-16, NUL or other control bytes) and, with its line number, for a line that is
// neither blank, a comment (# or ;), a [section] nor key = value.
std::string checked_ini_text(const std::string& text, const std::string& source_name);

}  // namespace vibro
