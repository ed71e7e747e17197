// FileModel<1>, in a file of its own so that the sizes compile in parallel (file_model.cpp picks one).
#include "model_files/file_model.hpp"

namespace vibro::model_file {

std::unique_ptr<Model> make_file_model_1(std::shared_ptr<const ModelFileSpec> spec) {
  return std::make_unique<FileModel<1>>(std::move(spec));
}

}  // namespace vibro::model_file
