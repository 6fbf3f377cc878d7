class DistributedBackend:
    def __init__(self, accelerator):
        self.accelerator = accelerator

    @property
    def is_zero3(self):
        plugin = self.accelerator.state.deepspeed_plugin
        return plugin is not None and plugin.zero_stage == 3

    @property
    def is_main_process(self):
        return self.accelerator.is_main_process
