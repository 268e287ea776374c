// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LaunchToken} from "./LaunchToken.sol";
import {IUniswapV2Factory, IUniswapV2Pair, IWETH9} from "./UniswapInterfaces.sol";

/// A named launchpad on Uniswap V2: one transaction creates a token, its WETH pair and the pair's
/// first liquidity (the creator's ether against part of the supply). The creator receives the LP
/// shares and the rest of the supply, so the creator alone can later pull the liquidity.
contract V2Launchpad {
    event TokenLaunched(
        address indexed token,
        address indexed pair,
        address indexed creator,
        string name,
        string symbol,
        uint256 totalSupply
    );

    string public name;
    IUniswapV2Factory public immutable factory;
    IWETH9 public immutable weth;

    constructor(string memory name_, IUniswapV2Factory factory_, IWETH9 weth_) {
        name = name_;
        factory = factory_;
        weth = weth_;
    }

    function launch(string calldata tokenName, string calldata tokenSymbol, uint256 totalSupply, uint256 liquiditySupply)
        external
        payable
        returns (address token, address pair)
    {
        require(msg.value > 0, "Launchpad: NO_ETH");
        require(liquiditySupply > 0 && liquiditySupply <= totalSupply, "Launchpad: LIQUIDITY_SUPPLY");
        LaunchToken launched = new LaunchToken(tokenName, tokenSymbol, totalSupply, address(this));
        token = address(launched);
        pair = factory.createPair(token, address(weth));
        require(launched.transfer(pair, liquiditySupply), "Launchpad: TRANSFER_FAILED");
        weth.deposit{value: msg.value}();
        require(weth.transfer(pair, msg.value), "Launchpad: TRANSFER_FAILED");
        IUniswapV2Pair(pair).mint(msg.sender);
        if (totalSupply > liquiditySupply) {
            require(launched.transfer(msg.sender, totalSupply - liquiditySupply), "Launchpad: TRANSFER_FAILED");
        }
        emit TokenLaunched(token, pair, msg.sender, tokenName, tokenSymbol, totalSupply);
    }
}
