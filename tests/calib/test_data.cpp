// The measured-data CSV (calib/data.hpp): the shipped files, every column, several tables, and
// errors at file:line:column (more error cases: tests/catalogue/cases/calib_*.case).
#include <catch2/catch.hpp>

#include "aicore/calib/data.hpp"

using namespace aicore;
using calib::RowSet;

namespace {

calib::Dataset parse(const std::string& text) {
  calib::Dataset d;
  calib::parse_dataset(text, "d.csv", d);
  return d;
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("data: the shipped files parse, with their source lines", "[calib][data]") {
  const std::string dir = std::string(AICORE_SOURCE_DIR) + "/calibration/";
  const calib::Dataset d = calib::load_dataset(
      {dir + "measured-910b1.csv", dir + "kernels-a2.csv", dir + "kernels-a2-heldout.csv"});
  REQUIRE(d.micro.size() == 14);
  REQUIRE(d.kernels.size() == 2);
  CHECK(d.micro[0].kind == "loaddata");
  CHECK(d.micro[0].dst == "A2");
  CHECK(d.micro[0].param == 1);
  CHECK(d.micro[0].count == 256);
  CHECK(d.micro[0].value == 217.14);
  CHECK(d.micro[0].loc.line == 12);
  CHECK(d.micro[1].set == RowSet::Check);
  const calib::KernelRow& k = d.kernels[0];
  CHECK(k.name == "matmul_best_practice_case1");
  CHECK(k.shape.M == 8192);
  CHECK(k.shape.b_layout == gen::BLayout::NT);
  CHECK(k.opt.base_n == 256);
  CHECK(k.opt.l1_buffers == 1);
  CHECK(k.task_us == 249467.08);
  CHECK(*k.pipe_us[1] == 195613.4);  // aic_mte2_us
  CHECK(d.kernels[1].set == RowSet::Check);
  bool cites = false;
  for (const std::string& n : d.notes) cites = cites || n.find("msKPP") != std::string::npos;
  CHECK(cites);
}

TEST_CASE("data: optional columns, empty cells, several tables in one file", "[calib][data]") {
  const calib::Dataset d = parse(
      "kernel,cores,m,k,n,dtype,base_m,base_n,base_k,task_us,aic_mte2_us,b_layout,l0_buffers\n"
      "k,1,256,128,512,bf16,128,256,64,100,,nd,1\n"
      "# a second table\n"
      "kind,dst,param,count,value,unit,fields,set\n"
      "mmad_half, CO1 ,64,256,6685.98,OPs/cycle,m=16 k=32,check\n");
  REQUIRE(d.kernels.size() == 1);
  CHECK(d.kernels[0].shape.dtype == isa::DType::BF16);
  CHECK(d.kernels[0].shape.b_layout == gen::BLayout::ND);
  CHECK(d.kernels[0].opt.l0_buffers == 1);
  CHECK(d.kernels[0].opt.l1_buffers == 2);  // the default
  CHECK_FALSE(d.kernels[0].pipe_us[1].has_value());
  REQUIRE(d.micro.size() == 1);
  CHECK(d.micro[0].dst == "CO1");  // cells are trimmed
  CHECK(d.micro[0].fields == "m=16 k=32");
  CHECK(d.micro[0].set == RowSet::Check);
  CHECK(d.micro[0].loc.line == 5);
}

TEST_CASE("data: errors name file, line, column and the nearest word", "[calib][data]") {
  CHECK(error_of("kind,dst,param,count,value\n") ==
        "d.csv:1:1: error: the header lacks the column 'unit' (required: kind, dst, param, count, value, "
        "unit)");
  CHECK(error_of("kind,dst,param,count,value,unit,unit\n") ==
        "d.csv:1:33: error: column 'unit' appears twice");
  CHECK(error_of("kind,dst,param,count,value,unit\nloaddata,A2,1,0,2,GiB/s\n") ==
        "d.csv:2:15: error: 'count' must be in 1..65536 (got 0)");
  CHECK(error_of("kind,dst,param,count,value,unit\nloaddata,A2,1,2,-2,GiB/s\n") ==
        "d.csv:2:17: error: 'value' must be > 0 (got -2)");
  CHECK(error_of("kind,dst,param,count,value,unit\nloaddata,A2,1,2,,GiB/s\n") ==
        "d.csv:2:17: error: column 'value' is empty");
  CHECK(error_of("kind,dst,param,count,value,unit,set\nloaddata,A2,1,2,3,GiB/s,trian\n") ==
        "d.csv:2:25: error: 'set' must be one of train, check, not 'trian'; did you mean 'train'?");
  CHECK(error_of("kernel,cores,m,k,n,dtype,base_m,base_n,base_k,task_us\nk,1,64,64,64,fp32,64,64,64,1\n") ==
        "d.csv:2:14: error: 'dtype' must be one of half, bf16, not 'fp32'");
  CHECK(error_of("kernel,cores,m,k,n,dtype,base_m,base_n,base_k,task_us\nk,1,100,64,64,half,64,64,64,1\n") ==
        "d.csv:2:1: error: the kernel is not one the generator can write: --m must be a positive multiple of "
        "16 "
        "for the half/bf16 kernel (got 100)");
  CHECK(error_of("kind,dst,param,count,value,unit\nmmad_half,CO1,16,256,1,OPs/cycle,\n") ==
        "d.csv:2:34: error: the row has 7 cells, the header 6");
  CHECK(error_of("") == "d.csv:1:1: error: no header and no rows: not a data file");
  CHECK(error_of("kind,dst,param,count,value,unit\ndatacopy_gm,L1,0,2,3,GiB/s\n") ==
        "d.csv:2:16: error: 'param' must be in 1..480 (got 0)");
  CHECK(error_of("kind,dst,param,count,value,unit\nloaddata,A2,1x,2,3,GiB/s\n") ==
        "d.csv:2:13: error: 'param' must be a whole number, not '1x'");
}

TEST_CASE("data: kernel rows of several cores, with the Matmul knobs", "[calib][data][cores]") {
  const std::string dir = std::string(AICORE_SOURCE_DIR) + "/calibration/";
  const calib::Dataset d = calib::load_dataset({dir + "kernels-a2-24core.csv"});
  REQUIRE(d.kernels.size() == 2);
  const calib::KernelRow& c3 = d.kernels[0];
  CHECK(c3.cores == 24);
  CHECK(c3.split_m == 4);
  CHECK(c3.split_n == 6);
  CHECK(c3.shape.dtype == isa::DType::Half);  // no dtype column: fp16
  CHECK(c3.opt.tmpl == gen::MatmulTemplate::Norm);
  CHECK(c3.opt.unit_flag);
  CHECK(c3.opt.depth_a1 == 0);  // depth 1 = step 1 in a NORM row: the plain kernel
  CHECK(*c3.aicore_us == 10870.96);
  const calib::KernelRow& c5 = d.kernels[1];
  CHECK(c5.opt.tmpl == gen::MatmulTemplate::Mdl);
  CHECK_FALSE(c5.opt.unit_flag);
  CHECK(c5.opt.step_ka == 8);
  CHECK(c5.opt.depth_a1 == 16);
  CHECK(c5.opt.step_kb == 4);
  CHECK(c5.opt.depth_b1 == 8);
  CHECK(*c5.pipe_us[3] == 47.853);  // aic_fixpipe_us
  // MDL without a unit_flag column: off, as GetMDLConfig.
  const calib::Dataset m = parse(
      "kernel,cores,m,k,n,base_m,base_n,base_k,split_m,split_n,template,task_us\n"
      "k,2,256,128,512,128,256,64,1,2,MDL,100\n");
  CHECK_FALSE(m.kernels[0].opt.unit_flag);
  CHECK(
      error_of("kernel,cores,m,k,n,base_m,base_n,base_k,split_m,split_n,task_us\n"
               "k,4,48,64,64,16,16,16,4,1,1\n") ==
      "d.csv:2:1: error: the kernel is not one the generator can write: --split 4x1 leaves cores without "
      "work: 48 x 64 cut in parts of 16 x 64 (16-row/column multiples) fills fewer than 4 x 1 parts; choose "
      "a smaller split");
}

TEST_CASE("data: memory rows are the streaming kernel, the tile 64 x 256 when not stated",
          "[calib][data][cores]") {
  const std::string dir = std::string(AICORE_SOURCE_DIR) + "/calibration/";
  const calib::Dataset d = calib::load_dataset({dir + "memory-a2-24core.csv"});
  REQUIRE(d.kernels.size() == 4);
  const calib::KernelRow& u = d.kernels[2];
  REQUIRE(u.stream.has_value());
  CHECK(u.name == "gm_l1_tile_64x256_unaligned");
  CHECK(u.cores == 24);
  CHECK(u.stream->cols == 12287);
  CHECK(u.stream->tile_cols == 256);
  CHECK(*u.pipe_us[1] == 422.515);  // aic_mte2_us
  CHECK_FALSE(u.l2_hit_pct.has_value());
  const calib::KernelRow& r = d.kernels[3];
  CHECK(r.stream->tile_rows == 64);  // not stated: assumed
  CHECK(r.stream->rounds == 4);
  CHECK(r.stream->slices == 4);
  CHECK(*r.l2_hit_pct == 75);
  CHECK(error_of("scenario,cores,rows,cols,aligned,task_us\ns,2,64,100,1,1\n") ==
        "d.csv:2:12: error: aligned=1 but rows of 100 fp16 elements (200 bytes) are not 32-byte aligned");
  CHECK(error_of("scenario,cores,rows,cols,task_us,l2_hit\ns,1,64,256,1,75\n") ==
        "d.csv:2:14: error: 'l2_hit' is a fraction in (0, 1] (got 75)");
  CHECK(error_of("scenario,cores,rows,cols,tile_rows,task_us\ns,2,60,256,16,1\n") ==
        "d.csv:2:1: error: the streaming kernel is not one the generator can write: --m 60 must be a "
        "multiple of "
        "the tile's 16 rows");
}
