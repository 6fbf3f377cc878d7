from lmtrain.flash_patch import replace_attention_with_flash

replace_attention_with_flash()

from lmtrain.train import train

if __name__ == "__main__":
    train()
