// SPDX-License-Identifier: GPL-2.0-only
#include "io/output_file.hpp"

#include <cstdio>
#include <fstream>

namespace eevdf {

bool write_output_file(const std::string& path, const std::string& text)
{
	const std::string tmp = path + ".tmp";
	{
		std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
		if (!f || !f.write(text.data(), static_cast<std::streamsize>(text.size())) || !f.flush()) {
			std::remove(tmp.c_str());
			return false;
		}
	}
	if (std::rename(tmp.c_str(), path.c_str()) != 0) {
		std::remove(tmp.c_str());
		return false;
	}
	return true;
}

void OutputSet::add(const std::string& path, std::string text, const std::string& flag)
{
	for (const Out& o : outs_)
		if (o.path == path && error_.empty())
			error_ = flag + ": '" + path + "' is also the file of " + o.flag + "; give each output its own file";
	outs_.push_back(Out{path, std::move(text), flag});
}

std::string OutputSet::commit()
{
	if (!error_.empty())
		return error_;
	auto remove_tmps = [&](size_t n) {
		for (size_t i = 0; i < n; i++)
			std::remove((outs_[i].path + ".tmp").c_str());
	};
	for (size_t i = 0; i < outs_.size(); i++) {
		const std::string tmp = outs_[i].path + ".tmp";
		std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
		if (!f || !f.write(outs_[i].text.data(), static_cast<std::streamsize>(outs_[i].text.size())) || !f.flush()) {
			f.close();
			remove_tmps(i + 1);
			return outs_[i].flag + ": cannot write '" + outs_[i].path + "'";
		}
	}
	for (size_t i = 0; i < outs_.size(); i++)
		if (std::rename((outs_[i].path + ".tmp").c_str(), outs_[i].path.c_str()) != 0) {
			for (size_t j = i; j < outs_.size(); j++)
				std::remove((outs_[j].path + ".tmp").c_str());
			return outs_[i].flag + ": cannot write '" + outs_[i].path + "' (" + std::to_string(i) +
			       " other output files were already written)";
		}
	return "";
}

}  // namespace eevdf
