#pragma once
// Text that vibro submit writes into a batch script: the command line through bash, the #SBATCH
// header through sbatch's own option reader. Neither may let a file or job name end its line or
// run as a command.
#include <string>

namespace vibro {

// `text` in single quotes for bash ('\'' for a quote inside): taken literally, $(), `` and ; too.
std::string shell_quoted(const std::string& text);

// A path as the value of an #SBATCH option: in double quotes with \ before " ' # and \ (sbatch reads
// an unescaped # as the start of a comment) and % written %% (sbatch expands %j, %u, ... in paths).
std::string sbatch_quoted_path(const std::string& path);

// A job name of letters, digits and . _ - only (the rest becomes _): it is a label, never a path.
std::string sbatch_job_name(const std::string& text);

// Throws InputError naming `what` if `text` holds a control character: a newline would end the
// script's line (a comment or an #SBATCH directive) and run what follows it as a command.
void require_one_line(const std::string& what, const std::string& text);

}  // namespace vibro
