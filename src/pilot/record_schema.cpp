// pilot/record_schema: the run record's JSON Schema and CSV header. The fields are what the
// decision guide asks both runs to log: effective training steps (not wall time), throughput per
// step, steps continued after a recovery, evaluation results, compile time, cache generation, queue
// wait, restarts, data reload, failed runs and validation work.
#include <nlohmann/json.hpp>

#include "tr2audit/pilot/record.hpp"

namespace tr2audit::pilot {
namespace {

using nlohmann::json;

json number(std::string_view description, double minimum = 0) {
  return json{{"type", "number"}, {"minimum", minimum}, {"description", description}};
}

json integer(std::string_view description) {
  return json{{"type", "integer"}, {"minimum", 0}, {"description", description}};
}

json loss_curve() {
  return json{{"type", "array"},
              {"description", "training loss at logged optimizer steps; the comparison matches equal steps"},
              {"items",
               {{"type", "object"},
                {"required", {"step", "loss"}},
                {"additionalProperties", false},
                {"properties", {{"step", integer("optimizer step")}, {"loss", {{"type", "number"}}}}}}}};
}

json recoveries() {
  json item = {{"type", "object"},
               {"required", {"failed_at_step", "resumed_from_step"}},
               {"properties",
                {{"failed_at_step", integer("last step reached before the failure")},
                 {"resumed_from_step", integer("the checkpoint's step the run continued from")},
                 {"steps_continued", integer("steps completed after the resume")},
                 {"loss_before", {{"type", "number"}, {"description", "loss at resumed_from_step before the failure"}}},
                 {"loss_after", {{"type", "number"}, {"description", "loss at the first logged step after resuming"}}},
                 {"cause", {{"type", "string"}}}}}};
  return json{{"type", "array"}, {"description", "each failure the run recovered from"}, {"items", item}};
}

}  // namespace

std::string record_schema() {
  json properties = {
      {"schema", {{"const", std::string(k_record_schema_id)}}},
      {"platform", {{"enum", {"gpu", "trn2"}}}},
      {"run_id", {{"type", "string"}}},
      {"instance_type", {{"type", "string"}, {"description", "p4d.24xlarge, trn2.48xlarge, ..."}}},
      {"neuron_sdk", {{"type", "string"}, {"description", "pinned Neuron SDK version (trn2) or CUDA version (gpu)"}}},
      {"price_per_hour", number("on-demand or contracted price of the instance, for cost per effective step")},
      {"effective_steps", integer("optimizer steps that count toward the trained model (not repeated after a "
                                  "restart, not compile warm-up)")},
      {"wall_time_s", number("billed time of the whole run, compile, restarts and data reload included")},
      {"seconds_per_step", number("steady-state time per optimizer step (after compilation)")},
      {"tokens_per_step", number("tokens (or samples) per optimizer step, global")},
      {"loss_curve", loss_curve()},
      {"recoveries", recoveries()},
      {"eval",
       {{"type", "object"},
        {"description", "final evaluation results by metric name"},
        {"additionalProperties", {{"type", "number"}}}}},
      {"compile_time_s", number("time spent compiling graphs (trn2; 0 for eager GPU runs)")},
      {"graph_compilations", integer("number of graphs compiled during the run")},
      {"cache_generation",
       {{"type", "string"},
        {"description",
         "id of the compile-cache contents the run started "
         "from (empty cache = \"cold\")"}}},
      {"queue_wait_s", number("time waiting for capacity before the run started")},
      {"restarts", integer("times the job was restarted")},
      {"data_reload_s", number("time spent reloading or re-sharding data after restarts")},
      {"failed_runs", integer("attempts that ended without a usable result")},
      {"validation_work_hours", number("engineer hours spent validating the run's outputs")},
  };
  json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"$id", "https://tr2audit.dev/schemas/" + std::string(k_record_schema_id) + ".json"},
                 {"title", "tr2audit run record (GPU baseline or Trainium2 trial)"},
                 {"type", "object"},
                 {"required", {"schema", "platform", "effective_steps", "loss_curve"}},
                 {"properties", properties}};
  return schema.dump(2) + "\n";
}

std::string record_csv_header() {
  return "schema,platform,run_id,event,step,loss,seconds_per_step,tokens_per_step,eval_name,eval_value,"
         "compile_time_s,cache_generation,queue_wait_s,restart_index,resumed_from_step,data_reload_s,"
         "validation_work_hours,note\n";
}

}  // namespace tr2audit::pilot
