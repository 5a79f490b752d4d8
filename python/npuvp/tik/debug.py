"""tik_instance.tikdb: runs a built operator (BuildCCE first) as Huawei's debugger does, on an
npuvp platform: real blocks in parallel, double buffering, timing, deterministic memory."""
from .errors import TikError
from . import runner
from . import soc


class Debugger:
    def __init__(self, tik):
        self._tik = tik
        self.last_run = None  # the run's report: cycles, sim_time_us, blocks, instructions

    def start_debug(self, feed_dict, interactive=False):
        """Runs the operator with `feed_dict` ({input name: numpy array or number}); returns the
        outputs as numpy arrays in BuildCCE's `outputs` order."""
        built = self._tik._built
        if built is None:
            raise TikError("start_debug: call BuildCCE first")
        name, inputs, outputs, program = built
        feeds = runner.feeds_from(inputs, feed_dict)
        # interactive: block 0 stops before each statement at a prompt on stdin (next, step,
        # continue, break LINE, print NAME, where, quit: sw/tik/tik_console.h).
        result = runner.run_program(program, feeds, self._tik._platform or soc.current_platform(),
                                    interactive=bool(interactive))
        self.last_run = {k: v for k, v in result.items() if k != "outputs"}
        return runner.outputs_from(result, outputs)
