import os
import unittest


class TestDeepSpeedConfig(unittest.TestCase):
    def test_config_exists(self):
        here = os.path.dirname(__file__)
        self.assertTrue(os.path.exists(f"{here}/../../ds_config.json"))
